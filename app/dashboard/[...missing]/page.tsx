// Any /dashboard/* path without a page: the dashboard's own not-found page, inside the dashboard shell, so the
// navigation stays one click away.
import { notFound } from "next/navigation";

export default function MissingDashboardPage(): never {
  notFound();
}

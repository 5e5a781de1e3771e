// /dashboard/monitors/new: the form, pre-filled from a result page's "Watch this host" (?target=&checks=) or
// "Watch this package" (?target=&checks=packages&packages=, one "ecosystem name version" a line).
import { NewMonitor } from "./NewMonitor";

export const metadata = { title: "New monitor · Dashboard" };

export default async function NewMonitorPage({
  searchParams,
}: {
  searchParams: Promise<{ target?: string; checks?: string; packages?: string }>;
}) {
  const { target, checks, packages } = await searchParams;
  return <NewMonitor target={target ?? ""} checks={checks ?? ""} packages={packages ?? ""} />;
}

import { ReportsView } from "./ReportsView";

export const metadata = { title: "Saved reports · Dashboard" };

export default function ReportsPage() {
  return <ReportsView />;
}

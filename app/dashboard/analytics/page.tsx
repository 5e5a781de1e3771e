import { AnalyticsView } from "./AnalyticsView";

export const metadata = { title: "Analytics · Dashboard" };

export default function AnalyticsPage() {
  return <AnalyticsView />;
}

import { AnalyticsView } from "./AnalyticsView";
import { procedureNames } from "./procedure-names";

export const metadata = { title: "Analytics · Dashboard" };

export default function AnalyticsPage() {
  return <AnalyticsView procedures={procedureNames()} />;
}

// /dashboard/monitors: the workspace's monitors, their checks' states and last changes.
import { MonitorsView } from "./MonitorsView";

export const metadata = { title: "Monitors · Dashboard" };

export default function MonitorsPage() {
  return <MonitorsView />;
}

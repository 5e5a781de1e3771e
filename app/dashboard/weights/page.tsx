import { WeightsView } from "./WeightsView";

export const metadata = { title: "Signal weights · Dashboard" };

export default function WeightsPage() {
  return <WeightsView />;
}

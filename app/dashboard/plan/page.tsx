import { PlanView } from "./PlanView";

export const metadata = { title: "Plan · Dashboard" };

export default function PlanPage() {
  return <PlanView />;
}

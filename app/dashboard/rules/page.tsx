import { RulesView } from "./RulesView";

export const metadata = { title: "Rules · Dashboard" };

export default function RulesPage() {
  return <RulesView />;
}

import { KeysView } from "./KeysView";

export const metadata = { title: "API keys · Dashboard" };

export default function KeysPage() {
  return <KeysView />;
}

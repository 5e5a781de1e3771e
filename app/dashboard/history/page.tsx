import { HistoryView } from "./HistoryView";

export const metadata = { title: "Lookup history · Dashboard" };

export default function HistoryPage() {
  return <HistoryView />;
}

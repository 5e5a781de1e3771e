import { SourcesView } from "./SourcesView";

export const metadata = { title: "Data sources · Dashboard" };

export default function SourcesPage() {
  return <SourcesView />;
}

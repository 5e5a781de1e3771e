import { BulkView } from "./BulkView";

export const metadata = { title: "Bulk jobs · Dashboard" };

export default function BulkPage() {
  return <BulkView />;
}

import { WebhooksView } from "./WebhooksView";

export const metadata = { title: "Webhooks · Dashboard" };

export default function WebhooksPage() {
  return <WebhooksView />;
}

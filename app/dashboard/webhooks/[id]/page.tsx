import { WebhookDetail } from "./WebhookDetail";

export const metadata = { title: "Webhook · Dashboard" };

export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <WebhookDetail id={id} />;
}

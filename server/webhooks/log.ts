import { logger } from "../operate/log";

// Webhook problems are logged, never surfaced to the API caller whose request triggered the event.
// The message only: a delivery error never carries the webhook's secret, and the URL stays out of the line.
export function logWebhookError(what: string, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  logger().error({ component: "webhooks", error: message }, what);
}

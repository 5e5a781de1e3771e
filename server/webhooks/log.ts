// Webhook problems are logged, never surfaced to the API caller whose request triggered the event.
export function logWebhookError(what: string, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`[webhooks] ${what}: ${message}`);
}

// Webhook settings, read at call time so tests can change them. Documented in docs/config/webhooks.md.
import { numberSetting } from "../env";
const num = (name: string, fallback: number, min: number, max: number): number =>
  numberSetting(name, fallback, { min, max });

/** Webhooks one workspace may register; one more is refused with 409 CONFLICT. */
export const maxWebhooksPerWorkspace = () => num("SERVICE_WEBHOOK_LIMIT", 20, 1, 1000);
/** Time a receiver has to answer one delivery attempt. */
export const deliveryTimeoutMs = () => num("SERVICE_WEBHOOK_TIMEOUT_MS", 5000, 200, 60_000);
/** How often the worker looks for due deliveries. */
export const pollIntervalMs = () => num("SERVICE_WEBHOOK_POLL_MS", 1000, 50, 60_000);
/** Deliveries claimed (and sent concurrently) per poll. */
export const batchSize = () => num("SERVICE_WEBHOOK_BATCH", 20, 1, 500);
/** SERVICE_WEBHOOK_WORKER=0 keeps this instance from sending (another instance, or none, does it). */
export const workerEnabled = () => process.env.SERVICE_WEBHOOK_WORKER?.trim() !== "0";

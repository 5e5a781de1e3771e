// Webhook settings, read at call time so tests can change them. Documented in docs/config/webhooks.md.
import { setting } from "../env";

/** Webhooks one workspace may register; one more is refused with 409 CONFLICT. */
export const maxWebhooksPerWorkspace = () => setting("SERVICE_WEBHOOK_LIMIT");
/** Time a receiver has to answer one delivery attempt. */
export const deliveryTimeoutMs = () => setting("SERVICE_WEBHOOK_TIMEOUT_MS");
/** How often the worker looks for due deliveries. */
export const pollIntervalMs = () => setting("SERVICE_WEBHOOK_POLL_MS");
/** Deliveries claimed (and sent concurrently) per poll. */
export const batchSize = () => setting("SERVICE_WEBHOOK_BATCH");
/** SERVICE_WEBHOOK_WORKER=0 keeps this instance from sending (another instance, or none, does it). */
export const workerEnabled = () => setting("SERVICE_WEBHOOK_WORKER");

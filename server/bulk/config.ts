// Settings of the bulk job worker (server/bulk/worker.ts), read with the strict readers: an invalid value stops the
// server at start-up with the variable's name (server/startup/validate.ts calls every reader here).
import { setting } from "../env";

/** How often an idle worker looks for work, in ms (it is also woken when a job is created in this instance). */
export const bulkPollMs = () => setting("SERVICE_BULK_POLL_MS");
/** Items one instance runs at once, across all jobs. */
export const bulkConcurrency = () => setting("SERVICE_BULK_CONCURRENCY");
/** Items of one job running at once, across all instances. */
export const bulkPerJob = () => setting("SERVICE_BULK_PER_JOB");
/** How long a claim holds, in ms; an item whose worker died runs again once its claim expires. */
export const bulkLeaseMs = () => setting("SERVICE_BULK_LEASE_MS");
/** SERVICE_BULK_WORKER=0 keeps this instance from running items (another instance does). */
export const bulkWorkerEnabled = () => setting("SERVICE_BULK_WORKER");

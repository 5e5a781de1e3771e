// Settings of the bulk job worker (server/bulk/worker.ts), read with the strict readers: an invalid value stops the
// server at start-up with the variable's name (server/startup/validate.ts calls every reader here).
import { numberSetting } from "../env";

/** How often an idle worker looks for work, in ms (it is also woken when a job is created in this instance). */
export const bulkPollMs = () => numberSetting("SERVICE_BULK_POLL_MS", 500, { min: 20, max: 60_000 });
/** Items one instance runs at once, across all jobs. */
export const bulkConcurrency = () => numberSetting("SERVICE_BULK_CONCURRENCY", 8, { min: 1, max: 100 });
/** Items of one job running at once, across all instances. */
export const bulkPerJob = () => numberSetting("SERVICE_BULK_PER_JOB", 4, { min: 1, max: 100 });
/** How long a claim holds, in ms; an item whose worker died runs again once its claim expires. */
export const bulkLeaseMs = () => numberSetting("SERVICE_BULK_LEASE_MS", 120_000, { min: 200, max: 3_600_000 });
/** SERVICE_BULK_WORKER=0 keeps this instance from running items (another instance does). */
export const bulkWorkerEnabled = () => process.env.SERVICE_BULK_WORKER?.trim() !== "0";

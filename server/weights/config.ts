// Learned-weight settings, read at call time so tests and operators can change them without a restart.
import { setting } from "../env";

/** SERVICE_LEARNED_WEIGHTS_MIN_LABELS: labelled assessments (both fraud and legitimate among them) before a switch. */
export const learnedWeightsMinLabels = () => setting("SERVICE_LEARNED_WEIGHTS_MIN_LABELS");

/** SERVICE_LEARNED_WEIGHTS_MAX_LABELS: most recent labels one fit reads (bounds the cost of GET /weights). */
export const learnedWeightsMaxLabels = () => setting("SERVICE_LEARNED_WEIGHTS_MAX_LABELS");

/** SERVICE_WEIGHTS_CACHE_SECONDS: how long an instance keeps a workspace's weight set before reading it again. */
export const weightsCacheSeconds = () => setting("SERVICE_WEIGHTS_CACHE_SECONDS");

// Learned-weight settings, read at call time so tests and operators can change them without a restart.
import { numberSetting } from "../env";

/** SERVICE_LEARNED_WEIGHTS_MIN_LABELS: labelled assessments (both fraud and legitimate among them) before a switch. */
export const learnedWeightsMinLabels = () => numberSetting("SERVICE_LEARNED_WEIGHTS_MIN_LABELS", 50, { min: 2 });

/** SERVICE_LEARNED_WEIGHTS_MAX_LABELS: most recent labels one fit reads (bounds the cost of GET /weights). */
export const learnedWeightsMaxLabels = () => numberSetting("SERVICE_LEARNED_WEIGHTS_MAX_LABELS", 100_000, { min: 100 });

/** SERVICE_WEIGHTS_CACHE_SECONDS: how long an instance keeps a workspace's weight set before reading it again. */
export const weightsCacheSeconds = () => numberSetting("SERVICE_WEIGHTS_CACHE_SECONDS", 30, { min: 0 });

// Settings of publishable keys (see README: SERVICE_PUBLISHABLE_*), read at call time and checked at start.
import { numberSetting } from "../env";

/** Device checks one publishable key accepts per client IP within the window. */
export const publishableRateLimit = () => numberSetting("SERVICE_PUBLISHABLE_RATE_LIMIT", 30, { min: 1, max: 100_000 });
/** Length of the publishable keys' per-IP window, in seconds (fixed window). */
export const publishableRateWindowSeconds = () =>
  numberSetting("SERVICE_PUBLISHABLE_RATE_WINDOW_SECONDS", 60, { min: 1, max: 86_400 });

/**
 * How long a secret key's row (status, workspace, plans) may serve metered lookups from memory before it is read
 * again; 0 turns the key cache off. Never trusted alone: see server/keys/cache.ts.
 */
export const keyCacheSeconds = () => numberSetting("SERVICE_KEY_CACHE_SECONDS", 60, { min: 0, max: 3_600 });

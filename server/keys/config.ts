// Settings of publishable keys (see README: SERVICE_PUBLISHABLE_*), read at call time and checked at start.
import { setting } from "../env";

/** Device checks one publishable key accepts per client IP within the window. */
export const publishableRateLimit = () => setting("SERVICE_PUBLISHABLE_RATE_LIMIT");
/** Length of the publishable keys' per-IP window, in seconds (fixed window). */
export const publishableRateWindowSeconds = () => setting("SERVICE_PUBLISHABLE_RATE_WINDOW_SECONDS");

/**
 * How long a secret key's row (status, workspace, plans) may serve metered lookups from memory before it is read
 * again; 0 turns the key cache off. Never trusted alone: see server/keys/cache.ts.
 */
export const keyCacheSeconds = () => setting("SERVICE_KEY_CACHE_SECONDS");

// Retry schedule: the first attempt is immediate, then exponential backoff for about a day (Standard Webhooks
// practice), after which the delivery is marked failed.
const MIN = 60_000;
export const RETRY_DELAYS_MS = [1 * MIN, 5 * MIN, 30 * MIN, 120 * MIN, 300 * MIN, 600 * MIN, 600 * MIN] as const;

/** Attempts in total before a delivery fails: the first plus one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** When to try again after `attempts` failed attempts, or null when the delivery has failed for good. */
export function nextAttemptAfter(attempts: number, now: Date): Date | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  return new Date(now.getTime() + RETRY_DELAYS_MS[attempts - 1]);
}

/** A paused delivery is rechecked this often; it resumes if the entitlement returns within the retry window. */
export const PAUSE_RECHECK_MS = 5 * MIN;
export const RETRY_WINDOW_MS = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);

export const SCHEDULE_TEXT = "1 min, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts over about 28 hours)";

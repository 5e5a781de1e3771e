// Telling a database that cannot be reached (connection refused, server gone, database or schema dropped, pool
// exhausted) from a bug. Such a failure is expected operation: the API answers 503 UPSTREAM_UNAVAILABLE with
// Retry-After (server/errors.ts) so clients back off, and the log says so once per interval with a count instead
// of a stack trace per request and per worker poll (issue 22, item 10).
import { setting } from "../env";
import { storeOutageReason } from "../db/outage-reason";
import { logger } from "./log";

export { storeOutageReason };

/** How often the log repeats that the database is unreachable while it stays so (SERVICE_DB_OUTAGE_LOG_MS). */
function intervalMs(): number {
  return setting("SERVICE_DB_OUTAGE_LOG_MS");
}

const g = globalThis as unknown as { __serviceOutageLog?: { loggedAt: number; suppressed: number } };

/**
 * Records one failure caused by an unreachable database: the first one logs a warning, later ones within the
 * interval are only counted and reported with the next warning. Returns the reason, or null when `err` is not an
 * outage (then the caller logs it as it would any error).
 */
export function noteStoreOutage(err: unknown, where: string): string | null {
  const reason = storeOutageReason(err);
  if (!reason) return null;
  const state = (g.__serviceOutageLog ??= { loggedAt: 0, suppressed: 0 });
  const now = Date.now();
  if (now - state.loggedAt >= intervalMs()) {
    logger().warn(
      { component: "database", where, reason, failures_since_last_log: state.suppressed },
      "database unreachable: answering 503 UPSTREAM_UNAVAILABLE and retrying",
    );
    state.loggedAt = now;
    state.suppressed = 0;
  } else state.suppressed++;
  return reason;
}

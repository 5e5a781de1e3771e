// A PostgreSQL that cannot be reached at start (not up yet, a failover under way, a network not ready) is waited for:
// start-up used to fail for good on the first refused connection, and the process stayed up with /healthz 200,
// /readyz 503 naming the step for ever, every page 500 and no background worker, until someone restarted it. The
// database steps (connect, migrate, prepare stored secrets, seed) now run again after a capped backoff, with a log
// line per attempt, until the database answers; the workers start after them. Only an outage is retried (an error
// server/db/outage-reason.ts recognises, on PostgreSQL): an embedded store that cannot be opened, or a migration the
// database refuses, would fail the same way each time, so start-up fails at once as before.
import { databaseUrl } from "../db/config";
import { storeOutageReason } from "../db/outage-reason";
import { logger } from "../operate/log";
import { processState } from "../operate/state";

/** The first wait, doubled after each failed attempt up to the longest. */
export const FIRST_RETRY_MS = 1000;
export const LONGEST_RETRY_MS = 30_000;

/** How long to wait after failed attempt number `attempt` (1, 2, ...): 1 s, 2 s, 4 s, ... at most 30 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt - 1, 30));
}

/** Thrown when shutdown begins while start-up waits for the database: there is nothing left to start. */
export class StartupStopped extends Error {
  constructor() {
    super("shutdown began while start-up was waiting for the database");
    this.name = "StartupStopped";
  }
}

/**
 * Runs `steps` until they succeed, again after each failure that says PostgreSQL cannot be reached. While it waits,
 * the process state's `waitingForDatabase` says why (scripts/startup-gate.mjs opens the port and answers 503) and
 * the step /readyz names says which attempt failed and when the next one is.
 */
export async function untilDatabaseAnswers<T>(steps: () => Promise<T>, sleep = sleepUnlessShuttingDown): Promise<T> {
  const state = processState();
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await steps();
      if (attempt > 1)
        logger().info({ component: "startup", attempts: attempt }, "the database answers; start-up goes on");
      state.waitingForDatabase = undefined;
      return result;
    } catch (err) {
      const reason = databaseUrl() ? storeOutageReason(err) : null;
      if (!reason) throw err;
      if (state.shuttingDown) throw new StartupStopped();
      const step = state.startupStep ?? "opening the database";
      const waitMs = retryDelayMs(attempt);
      state.waitingForDatabase = reason;
      logger().warn(
        { component: "startup", step, attempt, retry_in_ms: waitMs, reason },
        `the database cannot be reached at start (${reason}) while ${step}; attempt ${attempt} failed, ` +
          `trying again in ${waitMs / 1000} s`,
      );
      state.startupStep =
        `waiting for the database (attempt ${attempt} failed: ${reason}; ` + `next attempt in ${waitMs / 1000} s)`;
      await sleep(waitMs);
      if (state.shuttingDown) throw new StartupStopped();
    }
  }
}

/** Waits `ms`, or less when shutdown begins meanwhile. */
async function sleepUnlessShuttingDown(ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until && !processState().shuttingDown)
    await new Promise((r) => setTimeout(r, Math.min(200, until - Date.now())));
}

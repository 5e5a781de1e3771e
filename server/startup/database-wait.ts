// A PostgreSQL that cannot be reached at start (not up yet, a failover under way, a network not ready) is waited for:
// start-up used to fail for good on the first refused connection, and the process stayed up with /healthz 200,
// /readyz 503 naming the step for ever, every page 500 and no background worker, until someone restarted it. The
// database steps (connect, migrate, prepare stored secrets, seed) now run again after a capped backoff, with a log
// line per attempt, until the database answers; the workers start after them. Only an outage is retried (an error
// server/db/outage-reason.ts recognises, on PostgreSQL): an embedded store that cannot be opened, or a migration the
// database refuses, would fail the same way each time, so start-up fails at once as before. So does a connection
// setting that is wrong rather than a server that is away (a refused password or role, a database that does not exist,
// a host name that does not resolve): classed as outages, they were retried for ever at warn level, and /readyz never
// said "start-up failed". A wait that lasts (from the fifth failed attempt) is logged at error level.
import { databaseUrl } from "../db/config";
import { firstInCauseChain, storeOutageReason } from "../db/outage-reason";
import { logger } from "../operate/log";
import { processState } from "../operate/state";

/** Failed attempts logged at warn level; from this one on, at error level (someone should look). */
export const ERROR_FROM_ATTEMPT = 5;

// What waiting cannot mend at start, though a running server takes it for an outage (a database dropped, a password
// revoked under it): PostgreSQL's invalid password (28P01) and authorization (28000), a missing database (3D000), and a
// host name that does not resolve (ENOTFOUND; EAI_AGAIN, a resolver not answering yet, is waited for). The same as
// Prisma's engine codes and its driver adapter's kinds.
const FATAL_CODES = new Set(["28P01", "28000", "3D000", "ENOTFOUND", "P1000", "P1003"]);
const FATAL_KINDS = new Set(["AuthenticationFailed", "DatabaseAccessDenied", "DatabaseDoesNotExist"]);

/** The code when `err` (or anything in its cause chain) is a connection setting waiting cannot mend, else null. */
export function fatalAtStart(err: unknown): string | null {
  return firstInCauseChain(err, (e) => {
    const o = e as { code?: unknown; reason?: unknown; kind?: unknown };
    for (const code of [o.code, o.reason]) if (typeof code === "string" && FATAL_CODES.has(code)) return code;
    return typeof o.kind === "string" && FATAL_KINDS.has(o.kind) ? o.kind : null;
  });
}

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
      const reason = databaseUrl() && !fatalAtStart(err) ? storeOutageReason(err) : null;
      if (!reason) throw err;
      if (state.shuttingDown) throw new StartupStopped();
      const step = state.startupStep ?? "opening the database";
      const waitMs = retryDelayMs(attempt);
      state.waitingForDatabase = reason;
      logger()[attempt >= ERROR_FROM_ATTEMPT ? "error" : "warn"](
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

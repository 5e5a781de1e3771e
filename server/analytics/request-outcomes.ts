// What became of each API request a workspace made (its status), counted per UTC day for the analytics page's
// error rates. Recorded by the procedure ladder (server/api/trpc.ts, `authenticated`) once the caller is known;
// requests refused before that (no or a bad key) belong to no workspace and are not counted here.
//
// Counters, not a row per request: outcomes are added up in memory and written once per FLUSH_MS as one
// multi-row `INSERT .. ON CONFLICT DO UPDATE SET count = count + n` (one row per distinct workspace, day, procedure,
// key, status and code), so two processes adding to the same counter both count. Reads of this process flush first
// (they see their own requests) and closeDb flushes at shutdown. A failed write is logged, never thrown.
import { flushBeforeClose, type Db } from "../db/client";
import { noteStoreOutage } from "../operate/outage";
import { logger } from "../operate/log";

export interface RequestOutcome {
  workspaceId: string;
  /** The API key that made the request; null for the dashboard. */
  apiKeyId: string | null;
  /** The procedure's path, e.g. "ip.lookup". */
  procedure: string;
  /** The HTTP status the request was answered with. */
  status: number;
  /** The error code of the answer (e.g. "QUOTA_EXCEEDED"), when the caller knows it. */
  code?: string;
}

/** The key column's value for requests made from the dashboard (the same name the usage series uses). */
export const DASHBOARD_KEY = "dashboard";

const FLUSH_MS = 1_000;
/** Counters per statement (7 parameters each, far under PostgreSQL's 65,535). */
const ROWS_PER_STATEMENT = 500;
/** Distinct counters held before a flush is forced, whatever the timer. */
const MAX_PENDING = 2_000;

interface Counter {
  workspaceId: string;
  day: string;
  procedure: string;
  apiKeyId: string;
  status: number;
  code: string;
  count: number;
}

let pending = new Map<Db, Map<string, Counter>>();
let pendingSize = 0;
let timer: NodeJS.Timeout | null = null;
let inFlight: Promise<void> = Promise.resolve();

/** Notes one request's outcome, off the request's critical path (never throws, never waits). */
export function noteRequestOutcome(db: Db, outcome: RequestOutcome, now: Date = new Date()): void {
  try {
    const c: Counter = {
      workspaceId: outcome.workspaceId,
      day: now.toISOString().slice(0, 10),
      procedure: String(outcome.procedure).slice(0, 128),
      apiKeyId: outcome.apiKeyId ?? DASHBOARD_KEY,
      status: Number.isInteger(outcome.status) ? outcome.status : 500,
      code: (outcome.code ?? "").slice(0, 64),
      count: 1,
    };
    const id = JSON.stringify([c.workspaceId, c.day, c.procedure, c.apiKeyId, c.status, c.code]);
    let forDb = pending.get(db);
    if (!forDb) pending.set(db, (forDb = new Map()));
    const seen = forDb.get(id);
    if (seen) seen.count += 1;
    else {
      forDb.set(id, c);
      pendingSize += 1;
    }
    if (pendingSize >= MAX_PENDING) void flushRequestOutcomes();
    else if (!timer) {
      timer = setTimeout(() => void flushRequestOutcomes(), FLUSH_MS);
      // A pending flush never keeps a process alive on its own; shutdown flushes through closeDb.
      timer.unref?.();
    }
  } catch (err) {
    logger().error({ err, component: "analytics" }, "request outcome not noted");
  }
}

/** Writes every counter noted so far; resolves when they are stored (or their write failed and was logged). */
export function flushRequestOutcomes(): Promise<void> {
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  const batch = pending;
  pending = new Map();
  pendingSize = 0;
  const previous = inFlight;
  inFlight = (async () => {
    await previous;
    for (const [db, counters] of batch) {
      // Sorted, so two processes flushing overlapping counters take their row locks in the same order.
      const rows = [...counters.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
        await addCounters(db, rows.slice(i, i + ROWS_PER_STATEMENT)).catch((err) => {
          // An unreachable database is reported once per interval (server/db/outage.ts), not per flush.
          if (!noteStoreOutage(err, "request outcome counters write"))
            logger().error({ err, component: "analytics" }, "request outcome counters write failed");
        });
      }
    }
  })();
  return inFlight;
}
flushBeforeClose(flushRequestOutcomes);

async function addCounters(db: Db, rows: Counter[]): Promise<void> {
  const values: string[] = [];
  const params: unknown[] = [];
  for (const r of rows) {
    const b = params.length;
    values.push(`($${b + 1}, $${b + 2}::date, $${b + 3}, $${b + 4}, $${b + 5}::int, $${b + 6}, $${b + 7}::int)`);
    params.push(r.workspaceId, r.day, r.procedure, r.apiKeyId, r.status, r.code, r.count);
  }
  await db.$executeRawUnsafe(
    `INSERT INTO "RequestOutcomeDaily" ("workspaceId", "day", "procedure", "apiKeyId", "status", "code", "count")
     VALUES ${values.join(", ")}
     ON CONFLICT ("workspaceId", "day", "procedure", "apiKeyId", "status", "code")
     DO UPDATE SET "count" = "RequestOutcomeDaily"."count" + EXCLUDED."count"`,
    ...params,
  );
}

/** Deletes the counters of UTC days before `before` (the retention purge). */
export async function purgeRequestOutcomes(db: Db, before: Date): Promise<number> {
  return db.$executeRawUnsafe(
    `DELETE FROM "RequestOutcomeDaily" WHERE "day" < $1::date`,
    before.toISOString().slice(0, 10),
  );
}

export interface OutcomeCounts {
  requests: number;
  clientErrors: number;
  serverErrors: number;
  clientErrorRate: number | null;
  serverErrorRate: number | null;
}

export interface RequestOutcomesOfRange {
  /** Per UTC date of the range (every date present, zeros included). */
  daily: Map<string, OutcomeCounts>;
  totals: OutcomeCounts;
  endpoints: ({ endpoint: string } & OutcomeCounts)[];
  topErrors: { status: number; code: string | null; requests: number }[];
}

const TOP_ERRORS = 10;
const rate = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 10_000) / 10_000);
const zero = () => ({ requests: 0, clientErrors: 0, serverErrors: 0 });
const withRates = (c: { requests: number; clientErrors: number; serverErrors: number }): OutcomeCounts => ({
  ...c,
  clientErrorRate: rate(c.clientErrors, c.requests),
  serverErrorRate: rate(c.serverErrors, c.requests),
});

/**
 * The workspace's answered requests on the range's UTC days (whole days: the counters are per day), with the
 * 4xx and 5xx among them, per day, per procedure and in total, and the most frequent error statuses.
 * Flushes this process's pending counters first.
 */
export async function requestOutcomesOfRange(
  db: Db,
  a: { workspaceId: string; dates: string[] },
): Promise<RequestOutcomesOfRange> {
  await flushRequestOutcomes();
  const empty = {
    daily: new Map(a.dates.map((d) => [d, withRates(zero())])),
    totals: withRates(zero()),
    endpoints: [],
    topErrors: [],
  };
  if (a.dates.length === 0) return empty;
  const rows = await db.$queryRawUnsafe<
    { day: string; procedure: string; status: number; code: string; count: bigint | number }[]
  >(
    `SELECT to_char("day", 'YYYY-MM-DD') AS "day", "procedure", "status", "code", sum("count") AS "count"
       FROM "RequestOutcomeDaily"
      WHERE "workspaceId" = $1 AND "day" >= $2::date AND "day" <= $3::date
      GROUP BY 1, 2, 3, 4`,
    a.workspaceId,
    a.dates[0],
    a.dates[a.dates.length - 1],
  );
  const days = new Map(a.dates.map((d) => [d, zero()]));
  const total = zero();
  const byEndpoint = new Map<string, ReturnType<typeof zero>>();
  const errors = new Map<string, { status: number; code: string | null; requests: number }>();
  for (const r of rows) {
    const d = days.get(r.day);
    if (!d) continue;
    const count = Number(r.count);
    const status = Number(r.status);
    const e = byEndpoint.get(r.procedure) ?? zero();
    byEndpoint.set(r.procedure, e);
    for (const t of [d, total, e]) {
      t.requests += count;
      if (status >= 400 && status < 500) t.clientErrors += count;
      if (status >= 500) t.serverErrors += count;
    }
    if (status >= 400) {
      const id = `${status} ${r.code}`;
      const x = errors.get(id) ?? { status, code: r.code || null, requests: 0 };
      x.requests += count;
      errors.set(id, x);
    }
  }
  return {
    daily: new Map([...days.entries()].map(([d, c]) => [d, withRates(c)])),
    totals: withRates(total),
    endpoints: [...byEndpoint.entries()]
      .map(([endpoint, c]) => ({ endpoint, ...withRates(c) }))
      .sort(
        (x, y) =>
          y.clientErrors + y.serverErrors - (x.clientErrors + x.serverErrors) ||
          y.requests - x.requests ||
          x.endpoint.localeCompare(y.endpoint),
      ),
    topErrors: [...errors.values()]
      .sort((x, y) => y.requests - x.requests || x.status - y.status || (x.code ?? "").localeCompare(y.code ?? ""))
      .slice(0, TOP_ERRORS),
  };
}

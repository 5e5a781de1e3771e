// Lookup units are reserved with one conditional upsert per workspace and UTC month (used + n <= limit), and
// the ledger row is written in the same statement: never over-admits under any concurrency or number of app
// instances, and a refused request leaves no trace.
import { hotQuery, type Db } from "../db/client";
import { newId } from "../ids";
import { entitlingSubscriptionSql, graceCutoff } from "../billing/entitled";
import { groupedWriter } from "../db/grouped";
import { nextReset, periodStart } from "./period";

export interface QuotaState {
  limit: number;
  used: number;
  remaining: number;
  reset: Date;
}

export interface ReserveArgs {
  workspaceId: string;
  units: number;
  limit: number;
  requestId: string;
  endpoint: string;
  apiKeyId?: string | null;
  userId?: string | null;
  now?: Date;
}

/**
 * What a request read from the key cache (server/keys/cache.ts) asks the reservation to confirm in the same
 * statement: that its key is still active in this workspace and the workspace's entitling plans are still these.
 */
export interface ReserveGuard {
  apiKeyId: string;
  plans: string[];
}

/** A reservation's outcome: the quota state after it, null when refused, "stale" when the guard failed (nothing written). */
export type Reservation = QuotaState | null | "stale";

/** Reserves `units` or refuses; returns the quota state after the reservation, or null when refused. */
export async function reserveUnits(db: Db, a: ReserveArgs): Promise<QuotaState | null> {
  const r = await reserveOne(db, a);
  if (r === "stale") throw new Error("a reservation without a guard cannot be stale");
  return r;
}

async function reserveOne(db: Db, a: ReserveArgs, guard?: ReserveGuard): Promise<Reservation> {
  const now = a.now ?? new Date();
  const used = await reserveTotal(
    db,
    { workspaceId: a.workspaceId, now, limit: a.limit },
    [a],
    guard ? { apiKeyIds: [guard.apiKeyId], plans: guard.plans } : null,
  );
  if (used === "stale" || used === null) return used;
  return { limit: a.limit, used, remaining: Math.max(0, a.limit - used), reset: nextReset(now) };
}

// Grouped reservations. Concurrent requests of one workspace all update the same UsagePeriod row, so each waits
// for the previous one's commit. While one reservation of a workspace is in flight, the requests that arrive queue
// behind it and then go to the database together, as ONE statement that reserves their total and writes each one's
// ledger row: one row lock and one commit for the whole group. A request that finds nothing in flight goes at once,
// so a lone request waits for nothing. Each request still learns its exact `used` (the running total in arrival
// order). When a group's total does not fit in what is left, its requests are reserved one by one in arrival
// order, so the allowance is filled exactly as if they had come alone. Same guarantees as reserveUnits: never
// over-admits, a refused request leaves no trace. One statement serves both: a lone reservation is a group of one.
//
// A guard ($6 key ids, $7 plans; $7 NULL for none) makes the statement write nothing unless every listed key is
// still active in the workspace and the workspace's entitling plans at $9 (grace cutoff $8) are exactly $7: the
// check of a principal served from the key cache, at no extra round trip.
const RESERVE_SQL = `
WITH guard AS (
  SELECT $7::text[] IS NULL OR (
    (SELECT count(*) FROM "ApiKey" k WHERE k."id" = ANY($6::text[]) AND k."workspaceId" = $1::text AND k."status" = 'active') = cardinality($6::text[])
    AND (SELECT coalesce(array_agg(s."plan"), '{}') @> $7::text[] AND coalesce(array_agg(s."plan"), '{}') <@ $7::text[]
           FROM "Subscription" s WHERE s."workspaceId" = $1::text AND ${entitlingSubscriptionSql("$8", "$9")})
  ) AS "ok"
), req AS (
  SELECT * FROM jsonb_to_recordset($5::jsonb) AS r("id" text, "requestId" text, "apiKeyId" text, "userId" text, "endpoint" text, "units" int)
), upd AS (
  INSERT INTO "UsagePeriod" ("workspaceId", "periodStart", "used")
  SELECT $1::text, $2::timestamp(3), $3::int WHERE $3::int <= $4::int AND (SELECT "ok" FROM guard)
  ON CONFLICT ("workspaceId", "periodStart") DO UPDATE
    SET "used" = "UsagePeriod"."used" + EXCLUDED."used"
    WHERE "UsagePeriod"."used" + EXCLUDED."used" <= $4::int
  RETURNING "used"
), ledger AS (
  INSERT INTO "UsageLedger" ("id", "workspaceId", "periodStart", "requestId", "apiKeyId", "userId", "endpoint", "units", "createdAt")
  SELECT r."id", $1::text, $2::timestamp(3), r."requestId", r."apiKeyId", r."userId", r."endpoint", r."units", now() FROM req r, upd
  RETURNING 1
)
SELECT (SELECT "ok" FROM guard) AS "ok", (SELECT "used" FROM upd) AS "used", (SELECT count(*) FROM ledger) AS "ledger"`;

/** At most this many requests in one grouped statement. */
const MAX_GROUP = 100;

interface Waiter {
  db: Db;
  a: ReserveArgs;
  guard?: ReserveGuard;
  now: Date;
  resolve(q: Reservation): void;
  reject(err: unknown): void;
}

/**
 * One lane per database, workspace, period, limit and guarded plans: only requests that reserve against the same
 * row and limit, and whose guards (if any) expect the same plans, group.
 */
const reservations = groupedWriter<string, Waiter>({
  max: MAX_GROUP,
  group: reserveGroup,
  // Alone, or the group's total does not fit: one by one, in arrival order.
  one: (w) => reserveOne(w.db, { ...w.a, now: w.now }, w.guard).then(w.resolve, w.reject),
});
const dbIds = new WeakMap<Db, number>();
let nextDbId = 0;

function laneKey(db: Db, a: ReserveArgs, now: Date, guard?: ReserveGuard): string {
  let id = dbIds.get(db);
  if (id === undefined) dbIds.set(db, (id = nextDbId++));
  return `${id}|${a.workspaceId}|${periodStart(now).getTime()}|${a.limit}|${guard ? [...guard.plans].sort().join(",") : "-"}`;
}

/**
 * reserveUnits for a request of its own (not inside a transaction): grouped with the concurrent requests of the
 * same workspace into one statement. Resolves with this request's own quota state, null when refused, or "stale"
 * when its guard failed (nothing reserved).
 */
export function reserveUnitsGrouped(db: Db, a: ReserveArgs, guard?: ReserveGuard): Promise<Reservation> {
  const now = a.now ?? new Date();
  return new Promise((resolve, reject) =>
    reservations.add(laneKey(db, a, now, guard), { db, a, guard, now, resolve, reject }),
  );
}

/**
 * The one reservation statement: the requests' total, or nothing, with one ledger row per request. Returns the
 * period's usage after it, null when the total does not fit, "stale" when the guard failed (nothing written).
 */
async function reserveTotal(
  db: Db,
  at: { workspaceId: string; now: Date; limit: number },
  requests: ReserveArgs[],
  guard: { apiKeyIds: string[]; plans: string[] } | null,
): Promise<number | null | "stale"> {
  const total = requests.reduce((n, r) => n + r.units, 0);
  const rows = requests.map((r) => ({
    id: newId("led"),
    requestId: r.requestId,
    apiKeyId: r.apiKeyId ?? null,
    userId: r.userId ?? null,
    endpoint: r.endpoint,
    units: r.units,
  }));
  const result = await hotQuery<{ ok: boolean; used: number | string | null }>(
    db,
    "service_reserve_units",
    RESERVE_SQL,
    [
      at.workspaceId,
      periodStart(at.now),
      total,
      at.limit,
      JSON.stringify(rows),
      guard ? guard.apiKeyIds : [],
      guard ? guard.plans : null,
      graceCutoff(at.now),
      at.now,
    ],
  );
  const row = result[0]!;
  if (!row.ok) return "stale";
  return row.used === null ? null : Number(row.used);
}

/**
 * Reserves the group's total in one statement and settles every request; false (nothing settled, nothing written)
 * when it does not fit or the statement failed.
 */
async function reserveGroup(group: Waiter[]): Promise<boolean> {
  const first = group[0]!;
  const db = first.db;
  const limit = first.a.limit;
  const guarded = group.filter((w) => w.guard);
  const guard = guarded.length
    ? { apiKeyIds: [...new Set(guarded.map((w) => w.guard!.apiKeyId))], plans: guarded[0]!.guard!.plans }
    : null;
  let after: number | null | "stale";
  try {
    after = await reserveTotal(
      db,
      { workspaceId: first.a.workspaceId, now: first.now, limit },
      group.map((w) => w.a),
      guard,
    );
  } catch {
    // The statement failed as a whole (nothing was written): each request tries alone and gets its own outcome.
    return false;
  }
  // Over the allowance, or a guard failed: alone, each request gets its own outcome (only its own guard counts).
  if (after === null || after === "stale") return false;
  let used = after - group.reduce((n, w) => n + w.a.units, 0);
  for (const w of group) {
    used += w.a.units;
    w.resolve({ limit, used, remaining: Math.max(0, limit - used), reset: nextReset(w.now) });
  }
  return true;
}

export async function readUsage(db: Db, workspaceId: string, limit: number, now = new Date()): Promise<QuotaState> {
  const row = await db.usagePeriod.findUnique({
    where: { workspaceId_periodStart: { workspaceId, periodStart: periodStart(now) } },
  });
  const used = row?.used ?? 0;
  return { limit, used, remaining: Math.max(0, limit - used), reset: nextReset(now) };
}

/**
 * An operator's correction of this month's usage, positive or negative, recorded in the ledger with its reason.
 * Usage never goes below zero.
 */
export async function adjustUsage(
  db: Db,
  a: { workspaceId: string; units: number; reason: string; now?: Date },
): Promise<number> {
  const now = a.now ?? new Date();
  const ps = periodStart(now);
  const rows = await db.$queryRawUnsafe<{ used: number }[]>(
    `WITH upd AS (
       INSERT INTO "UsagePeriod" ("workspaceId", "periodStart", "used") VALUES ($1::text, $2::timestamp(3), GREATEST(0, $3::int))
       ON CONFLICT ("workspaceId", "periodStart") DO UPDATE SET "used" = GREATEST(0, "UsagePeriod"."used" + $3::int)
       RETURNING "used"
     ), ledger AS (
       INSERT INTO "UsageLedger" ("id", "workspaceId", "periodStart", "requestId", "endpoint", "units", "reason", "createdAt")
       SELECT $4::text, $1::text, $2::timestamp(3), $5::text, 'admin.usage.adjust', $3::int, $6::text, now() FROM upd
       RETURNING 1
     )
     SELECT "used" FROM upd, (SELECT count(*) FROM ledger) AS l`,
    a.workspaceId,
    ps,
    a.units,
    newId("led"),
    newId("req"),
    a.reason,
  );
  return Number(rows[0]?.used ?? 0);
}

export function quotaHeaders(q: QuotaState): Record<string, string> {
  return {
    "X-Service-Quota-Limit": String(q.limit),
    "X-Service-Quota-Used": String(q.used),
    "X-Service-Quota-Remaining": String(q.remaining),
    "X-Service-Quota-Reset": q.reset.toISOString(),
  };
}

/**
 * Gives `units` back to a workspace in the usage period they were reserved in (a bulk job's items that never ran,
 * or were refused before admission), as one ledger row with a negative count and its reason. Usage never goes
 * below zero. Returns the period's usage after the refund.
 */
export async function refundUnits(
  db: Db,
  a: {
    workspaceId: string;
    periodStart: Date;
    units: number;
    requestId: string;
    endpoint: string;
    reason: string;
    apiKeyId?: string | null;
    userId?: string | null;
  },
): Promise<number> {
  if (a.units <= 0) return 0;
  const rows = await db.$queryRawUnsafe<{ used: number }[]>(
    `WITH upd AS (
       UPDATE "UsagePeriod" SET "used" = GREATEST(0, "used" - $3::int)
       WHERE "workspaceId" = $1::text AND "periodStart" = $2::timestamp(3)
       RETURNING "used"
     ), ledger AS (
       INSERT INTO "UsageLedger" ("id", "workspaceId", "periodStart", "requestId", "apiKeyId", "userId", "endpoint", "units", "reason", "createdAt")
       SELECT $4::text, $1::text, $2::timestamp(3), $5::text, $7::text, $8::text, $6::text, -$3::int, $9::text, now() FROM upd
       RETURNING 1
     )
     SELECT "used" FROM upd, (SELECT count(*) FROM ledger) AS l`,
    a.workspaceId,
    a.periodStart,
    a.units,
    newId("led"),
    a.requestId,
    a.endpoint,
    a.apiKeyId ?? null,
    a.userId ?? null,
    a.reason,
  );
  return Number(rows[0]?.used ?? 0);
}

// The reservation statement: lookup units are reserved with one conditional upsert per workspace and UTC month
// (used + n <= limit), and the ledger rows are written in the same statement: never over-admits under any
// concurrency or number of app instances, and a refused request leaves no trace. Concurrent requests share it
// through ./grouped-reserve.ts; operator corrections and refunds are ./adjust.ts; the admission sequence that
// calls it is ./admission.ts.
import { hotQuery, type Db } from "../db/client";
import { newId } from "../ids";
import { entitlingSubscriptionSql, graceCutoff } from "../billing/entitled";
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

export async function reserveOne(db: Db, a: ReserveArgs, guard?: ReserveGuard): Promise<Reservation> {
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

/**
 * The one reservation statement: the requests' total, or nothing, with one ledger row per request. Returns the
 * period's usage after it, null when the total does not fit, "stale" when the guard failed (nothing written).
 */
export async function reserveTotal(
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

export async function readUsage(db: Db, workspaceId: string, limit: number, now = new Date()): Promise<QuotaState> {
  const row = await db.usagePeriod.findUnique({
    where: { workspaceId_periodStart: { workspaceId, periodStart: periodStart(now) } },
  });
  const used = row?.used ?? 0;
  return { limit, used, remaining: Math.max(0, limit - used), reset: nextReset(now) };
}

export function quotaHeaders(q: QuotaState): Record<string, string> {
  return {
    "X-Service-Quota-Limit": String(q.limit),
    "X-Service-Quota-Used": String(q.used),
    "X-Service-Quota-Remaining": String(q.remaining),
    "X-Service-Quota-Reset": q.reset.toISOString(),
  };
}

// Lookup units are reserved with one conditional upsert per workspace and UTC month (used + n <= limit), and
// the ledger row is written in the same statement: never over-admits under any concurrency or number of app
// instances, and a refused request leaves no trace.
import type { Db } from "../db/client";
import { newId } from "../ids";
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

const RESERVE_SQL = `
WITH upd AS (
  INSERT INTO "UsagePeriod" ("workspaceId", "periodStart", "used")
  SELECT $1::text, $2::timestamp(3), $3::int WHERE $3::int <= $4::int
  ON CONFLICT ("workspaceId", "periodStart") DO UPDATE
    SET "used" = "UsagePeriod"."used" + EXCLUDED."used"
    WHERE "UsagePeriod"."used" + EXCLUDED."used" <= $4::int
  RETURNING "used"
), ledger AS (
  INSERT INTO "UsageLedger" ("id", "workspaceId", "periodStart", "requestId", "apiKeyId", "userId", "endpoint", "units", "createdAt")
  SELECT $5::text, $1::text, $2::timestamp(3), $6::text, $7::text, $8::text, $9::text, $3::int, now() FROM upd
  RETURNING 1
)
SELECT "used" FROM upd, (SELECT count(*) FROM ledger) AS l`;

/** Reserves `units` or refuses; returns the quota state after the reservation, or null when refused. */
export async function reserveUnits(db: Db, a: ReserveArgs): Promise<QuotaState | null> {
  const now = a.now ?? new Date();
  const rows = await db.$queryRawUnsafe<{ used: number }[]>(
    RESERVE_SQL,
    a.workspaceId,
    periodStart(now),
    a.units,
    a.limit,
    newId("led"),
    a.requestId,
    a.apiKeyId ?? null,
    a.userId ?? null,
    a.endpoint,
  );
  if (rows.length === 0) return null;
  const used = Number(rows[0].used);
  return { limit: a.limit, used, remaining: Math.max(0, a.limit - used), reset: nextReset(now) };
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
  a: { workspaceId: string; periodStart: Date; units: number; requestId: string; endpoint: string; reason: string; apiKeyId?: string | null; userId?: string | null },
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

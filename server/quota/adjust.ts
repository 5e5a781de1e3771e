// Changes to a month's usage that are not reservations: an operator's correction (admin CLI) and refunds of units
// that were reserved but never used (a bulk job's items that never ran, an answer the client never received). Each
// is one statement with its ledger row, so the ledger always explains the usage.
import type { Db } from "../db/client";
import { newId } from "../ids";
import { periodStart } from "./period";

/**
 * An operator's correction of this month's usage, positive or negative, recorded in the ledger with its reason.
 * Usage never goes below zero, and the ledger row holds the change made (-25 asked of 10 used records -10), so the
 * month's ledger still sums to its usage.
 */
export async function adjustUsage(
  db: Db,
  a: { workspaceId: string; units: number; reason: string; now?: Date },
): Promise<number> {
  const now = a.now ?? new Date();
  const ps = periodStart(now);
  const rows = await db.$transaction(async (tx) => {
    // The usage the change starts from, locked first, so that no reservation moves it between the read below and the
    // update (a statement's own FOR UPDATE would not see the row once its upsert changed it).
    await tx.$queryRawUnsafe(
      `SELECT 1 FROM "UsagePeriod" WHERE "workspaceId" = $1::text AND "periodStart" = $2::timestamp(3) FOR UPDATE`,
      a.workspaceId,
      ps,
    );
    return tx.$queryRawUnsafe<{ used: number }[]>(
      `WITH before AS (
         SELECT "used" FROM "UsagePeriod" WHERE "workspaceId" = $1::text AND "periodStart" = $2::timestamp(3)
       ), upd AS (
         INSERT INTO "UsagePeriod" ("workspaceId", "periodStart", "used") VALUES ($1::text, $2::timestamp(3), GREATEST(0, $3::int))
         ON CONFLICT ("workspaceId", "periodStart") DO UPDATE SET "used" = GREATEST(0, "UsagePeriod"."used" + $3::int)
         RETURNING "used"
       ), ledger AS (
         INSERT INTO "UsageLedger" ("id", "workspaceId", "periodStart", "requestId", "endpoint", "units", "reason", "createdAt")
         SELECT $4::text, $1::text, $2::timestamp(3), $5::text, 'admin.usage.adjust',
           upd."used" - coalesce((SELECT "used" FROM before), 0), $6::text, now() FROM upd
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
  });
  return Number(rows[0]?.used ?? 0);
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

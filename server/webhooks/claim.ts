// Claiming due deliveries so that any number of app instances can run the worker against one database: the
// claim is one statement with FOR UPDATE SKIP LOCKED, and it pushes `nextAttemptAt` forward by a lease, so a
// claimed row is invisible to other instances until it is settled, or until the lease expires after a crash.
import type { Db } from "../db/client";

const CLAIM_SQL = `
UPDATE "WebhookDelivery" SET "nextAttemptAt" = $2::timestamp(3)
WHERE "id" IN (
  SELECT "id" FROM "WebhookDelivery"
  WHERE "status" IN ('pending', 'paused') AND "nextAttemptAt" <= $1::timestamp(3)
  ORDER BY "nextAttemptAt", "id"
  LIMIT $3::int
  FOR UPDATE SKIP LOCKED
)
RETURNING "id"`;

export async function claimDueDeliveries(db: Db, a: { now: Date; leaseMs: number; limit: number }) {
  const claimed = await db.$queryRawUnsafe<{ id: string }[]>(
    CLAIM_SQL,
    a.now,
    new Date(a.now.getTime() + a.leaseMs),
    a.limit,
  );
  if (claimed.length === 0) return [];
  return db.webhookDelivery.findMany({
    where: { id: { in: claimed.map((c) => c.id) } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

// Retention: rows whose purpose has passed are deleted in the background. Expired lookup history is already
// hidden from reads; it is deleted here after a grace period, as are expired saved reports ("hidden, later
// deleted"), finished rate-limit windows and old finished webhook deliveries.
import type { Db } from "../db/client";
import { deleteExpiredReports } from "../reports/reports";

const DAY = 86_400_000;

export interface PurgeResult {
  lookupHistory: number;
  savedReports: number;
  rateLimitBuckets: number;
  webhookDeliveries: number;
}

export async function runRetentionPurge(db: Db, now = new Date(), graceDays = 7): Promise<PurgeResult> {
  const grace = new Date(now.getTime() - graceDays * DAY);
  const [lookupHistory, savedReports, rateLimitBuckets, webhookDeliveries] = await Promise.all([
    db.lookupHistory.deleteMany({ where: { expiresAt: { lt: grace } } }),
    deleteExpiredReports(db, now),
    db.rateLimitBucket.deleteMany({ where: { windowStart: { lt: new Date(now.getTime() - DAY) } } }),
    db.webhookDelivery.deleteMany({ where: { status: { in: ["delivered", "failed"] }, createdAt: { lt: new Date(now.getTime() - 30 * DAY) } } }),
  ]);
  return {
    lookupHistory: lookupHistory.count,
    savedReports,
    rateLimitBuckets: rateLimitBuckets.count,
    webhookDeliveries: webhookDeliveries.count,
  };
}

let timer: NodeJS.Timeout | null = null;

/** Runs the purge hourly in this process (idempotent; the timer never keeps the process alive). */
export function startRetentionPurge(db: Db, everyMs = 3_600_000): void {
  if (timer) return;
  timer = setInterval(() => {
    runRetentionPurge(db).catch((err) => console.error("retention purge failed:", err));
  }, everyMs);
  timer.unref();
}

// Retention: rows whose purpose has passed are deleted in the background. Expired lookup history is already
// hidden from reads; it is deleted here after a grace period, as are expired saved reports ("hidden, later
// deleted"), finished rate-limit windows and old finished webhook deliveries. Events, audit included, are kept for
// the longer of 90 days and the workspace's plan history window (DESIGN.md), then deleted; device observations too.
import type { Db } from "../db/client";
import { entitlementsFor, PLANS } from "../plans/catalog";
import { deleteExpiredReports } from "../reports/reports";
import { MAX_RANGE_DAYS } from "../analytics/range";
import { purgeRequestOutcomes } from "../analytics/request-outcomes";
import { velocityWindowMinutes } from "../assessment/config";
import { purgeExpiredProjectScans } from "../projects/store";

const DAY = 86_400_000;

export interface PurgeResult {
  lookupHistory: number;
  savedReports: number;
  rateLimitBuckets: number;
  webhookDeliveries: number;
  events: number;
  bulkJobs: number;
  requestOutcomes: number;
  deviceObservations: number;
  listItems: number;
  velocityCounters: number;
  projectScans: number;
}

export const EVENT_RETENTION_MIN_DAYS = 90;

/** Days a workspace's events are kept with these plans: the longer of 90 days and the plans' history window. */
export const eventRetentionDays = (plans: readonly string[]) =>
  Math.max(EVENT_RETENTION_MIN_DAYS, entitlementsFor(plans).historyDays);

type RetainedTable = "Event" | "DeviceObservation";
type CreatedBefore = { workspaceId?: { in: string[] }; createdAt: { lt: Date } };

/**
 * Deletes rows of a per-workspace table past their workspace's event retention. Past the longest window any plan has,
 * a row goes whatever the plan; younger ones past 90 days are judged by the workspace's current subscriptions (any
 * not canceled, so a payment that is merely late never costs history).
 */
async function purgeByEventRetention(
  db: Db,
  table: RetainedTable,
  deleteWhere: (where: CreatedBefore) => Promise<number>,
  now: Date,
): Promise<number> {
  const longest = Math.max(EVENT_RETENTION_MIN_DAYS, ...Object.values(PLANS).map((p) => p.historyDays));
  const before = (days: number) => new Date(now.getTime() - days * DAY);
  let deleted = await deleteWhere({ createdAt: { lt: before(longest) } });
  const candidates = await db.$queryRawUnsafe<{ workspaceId: string }[]>(
    `SELECT DISTINCT "workspaceId" FROM "${table}" WHERE "createdAt" < $1::timestamp(3)`,
    before(EVENT_RETENTION_MIN_DAYS).toISOString(),
  );
  if (candidates.length === 0) return deleted;
  const ids = candidates.map((c) => c.workspaceId);
  const subs = await db.subscription.findMany({
    where: { workspaceId: { in: ids }, status: { not: "canceled" } },
    select: { workspaceId: true, plan: true },
  });
  const plansOf = new Map<string, string[]>();
  for (const s of subs) plansOf.set(s.workspaceId, [...(plansOf.get(s.workspaceId) ?? []), s.plan]);
  const byDays = new Map<number, string[]>();
  for (const id of ids) {
    const days = eventRetentionDays(plansOf.get(id) ?? []);
    byDays.set(days, [...(byDays.get(days) ?? []), id]);
  }
  for (const [days, workspaceIds] of byDays)
    deleted += await deleteWhere({ workspaceId: { in: workspaceIds }, createdAt: { lt: before(days) } });
  return deleted;
}

/** Deletes events past their workspace's retention (the longer of 90 days and the plans' history window). */
export function purgeExpiredEvents(db: Db, now = new Date()): Promise<number> {
  return purgeByEventRetention(db, "Event", async (where) => (await db.event.deleteMany({ where })).count, now);
}

/**
 * Device observations (the IP, email and account seen with a device, for per-device velocity) are the same personal
 * data as the assessment events that carry a device: they are kept by the same rule and deleted with it.
 */
export function purgeExpiredDeviceObservations(db: Db, now = new Date()): Promise<number> {
  return purgeByEventRetention(
    db,
    "DeviceObservation",
    async (where) => (await db.deviceObservation.deleteMany({ where })).count,
    now,
  );
}

/**
 * An address's velocity counters (server/assessment/velocity.ts): its minutes and the pairs last seen then, once older
 * than the shortest event retention (90 days) or the signal window if longer, with a day to spare. Kept as long as the
 * events they count, so a signal window made longer counts the same as its events would (the read's windows are 7
 * days and the signal window; counters are never more rows than the events they count).
 */
export async function purgeVelocityCounters(db: Db, now = new Date()): Promise<number> {
  const keep = Math.max(EVENT_RETENTION_MIN_DAYS * DAY, velocityWindowMinutes() * 60_000) + DAY;
  const before = new Date(now.getTime() - keep);
  const [minutes, pairs] = await Promise.all([
    db.velocityCount.deleteMany({ where: { minute: { lt: before } } }),
    db.velocityPair.deleteMany({ where: { lastAt: { lt: before } } }),
  ]);
  return minutes.count + pairs.count;
}

export async function runRetentionPurge(db: Db, now = new Date(), graceDays = 7): Promise<PurgeResult> {
  const grace = new Date(now.getTime() - graceDays * DAY);
  const [
    lookupHistory,
    savedReports,
    rateLimitBuckets,
    webhookDeliveries,
    events,
    bulkJobs,
    requestOutcomes,
    deviceObservations,
    listItems,
    velocityCounters,
    projectScans,
  ] = await Promise.all([
    db.lookupHistory.deleteMany({ where: { expiresAt: { lt: grace } } }),
    deleteExpiredReports(db, now),
    db.rateLimitBucket.deleteMany({ where: { windowStart: { lt: new Date(now.getTime() - DAY) } } }),
    db.webhookDelivery.deleteMany({
      where: { status: { in: ["delivered", "failed"] }, createdAt: { lt: new Date(now.getTime() - 30 * DAY) } },
    }),
    purgeExpiredEvents(db, now),
    // Finished bulk jobs past the history window (their items go with them); a job still running is never cut.
    db.bulkJob.deleteMany({ where: { expiresAt: { lt: grace }, finishedAt: { not: null } } }),
    // The daily request counters of the analytics error rates, once older than the longest range analytics reads.
    purgeRequestOutcomes(db, new Date(now.getTime() - MAX_RANGE_DAYS * DAY)),
    purgeExpiredDeviceObservations(db, now),
    // Named-list items past their expiry (they stopped matching then: server/lists/lookup.ts).
    db.namedListItem.deleteMany({ where: { expiresAt: { lt: now } } }),
    purgeVelocityCounters(db, now),
    // Projects' stored scans past the history window (server/projects/store.ts), as bulk jobs are.
    purgeExpiredProjectScans(db, grace),
  ]);
  return {
    lookupHistory: lookupHistory.count,
    savedReports,
    rateLimitBuckets: rateLimitBuckets.count,
    webhookDeliveries: webhookDeliveries.count,
    events,
    bulkJobs: bulkJobs.count,
    requestOutcomes,
    deviceObservations,
    listItems: listItems.count,
    velocityCounters,
    projectScans,
  };
}

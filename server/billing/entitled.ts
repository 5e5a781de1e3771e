// Which subscriptions give a workspace its plans right now. An `active` subscription counts; a `past_due` one
// counts for SERVICE_BILLING_GRACE_DAYS after it fell due, worked out at read time from pastDueSince (no timer to
// miss); a Stripe subscription set to cancel counts until its period end. Every plan read goes through here.
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { graceDays } from "./config";

export function graceCutoff(now: Date = new Date()): Date {
  return new Date(now.getTime() - graceDays() * 86_400_000);
}

/** The Prisma filter for a workspace's entitling subscriptions at `now`. */
export function entitlingSubscriptions(workspaceId: string, now: Date = new Date()): Prisma.SubscriptionWhereInput {
  return {
    workspaceId,
    OR: [{ status: "active" }, { status: "past_due", pastDueSince: { gt: graceCutoff(now) } }],
    NOT: { cancelAtPeriodEnd: true, currentPeriodEnd: { lte: now } },
  };
}

/**
 * The same rule as SQL over a "Subscription" row aliased `s`, with the grace cutoff and `now` passed as
 * parameters $cutoff and $now (for the one-round-trip key authentication query).
 */
export function entitlingSubscriptionSql(cutoffParam: string, nowParam: string): string {
  return `(s."status" = 'active' OR (s."status" = 'past_due' AND s."pastDueSince" > ${cutoffParam}::timestamp(3)))
          AND NOT (s."cancelAtPeriodEnd" AND s."currentPeriodEnd" IS NOT NULL AND s."currentPeriodEnd" <= ${nowParam}::timestamp(3))`;
}

export async function entitledPlans(
  db: Pick<Db, "subscription">,
  workspaceId: string,
  now: Date = new Date(),
): Promise<string[]> {
  const subs = await db.subscription.findMany({
    where: entitlingSubscriptions(workspaceId, now),
    select: { plan: true },
  });
  return subs.map((s) => s.plan);
}

// The one home of the spec's rule for deliveries when the webhook entitlement comes and goes: without it, waiting
// deliveries pause; when it returns, paused ones younger than the retry window are due again and older ones end as
// `expired`. Two callers apply it: a plan change (billing, for the whole workspace at once) and the delivery
// worker (for each claimed delivery, since an entitlement can also lapse without a plan change, e.g. at the end of
// a grace period). Both write the same states and the same messages from here.
import type { Db } from "../db/client";
import { PAUSE_RECHECK_MS, RETRY_WINDOW_MS } from "./schedule";

export const PAUSED_MESSAGE = "paused: the workspace's plan no longer includes webhooks";
export const EXPIRED_MESSAGE = "expired: webhooks returned to the plan after the retry window";

/** A paused delivery this old is no longer worth sending when the entitlement returns. */
export function pausedTooLong(createdAt: Date, now: Date): boolean {
  return now.getTime() - createdAt.getTime() > RETRY_WINDOW_MS;
}

/** The row update that pauses one delivery; it is looked at again after PAUSE_RECHECK_MS. */
export function pausedDelivery(now: Date) {
  return { status: "paused", nextAttemptAt: new Date(now.getTime() + PAUSE_RECHECK_MS), lastError: PAUSED_MESSAGE };
}

/** The row update that ends a delivery whose entitlement came back too late. */
export const expiredDelivery = { status: "expired", lastError: EXPIRED_MESSAGE } as const;

export interface EntitlementChange {
  paused: number;
  resumed: number;
  expired: number;
}

/** Applies the rule to every waiting or paused delivery of a workspace after its plans changed. */
export async function applyWebhookEntitlement(
  db: Db,
  workspaceId: string,
  entitled: boolean,
  now: Date,
): Promise<EntitlementChange> {
  const result = { paused: 0, resumed: 0, expired: 0 };
  if (!entitled) {
    const r = await db.webhookDelivery.updateMany({
      where: { workspaceId, status: "pending" },
      data: { status: "paused", lastError: PAUSED_MESSAGE },
    });
    result.paused = r.count;
    return result;
  }
  const windowStart = new Date(now.getTime() - RETRY_WINDOW_MS);
  const expired = await db.webhookDelivery.updateMany({
    where: { workspaceId, status: "paused", createdAt: { lte: windowStart } },
    data: expiredDelivery,
  });
  const resumed = await db.webhookDelivery.updateMany({
    where: { workspaceId, status: "paused", createdAt: { gt: windowStart } },
    data: { status: "pending", nextAttemptAt: now, lastError: null },
  });
  result.expired = expired.count;
  result.resumed = resumed.count;
  return result;
}

// Mirrors one Stripe subscription into the Subscription table from its CURRENT state, read from Stripe's API:
// events may arrive late, twice or out of order, so an event is only a hint to look again, never the data.
import type Stripe from "stripe";
import type { Db } from "../db/client";
import { newId } from "../ids";
import type { StripeSettings } from "./config";

export type MirroredStatus = "active" | "past_due" | "canceled";
// Ours only: past_due beyond the grace period (see grace.ts); gives no plan.
export type StoredStatus = MirroredStatus | "unpaid";

/** Stripe's status in ours: trialing counts as active; unpaid, incomplete and paused give no plan. */
export function mirroredStatus(s: Stripe.Subscription.Status): MirroredStatus {
  if (s === "active" || s === "trialing") return "active";
  if (s === "past_due") return "past_due";
  return "canceled";
}

function toDate(unix: number | null | undefined): Date | null {
  return typeof unix === "number" ? new Date(unix * 1000) : null;
}

/** The Stripe customer id of a subscription (expanded or not). */
export function customerIdOf(sub: Stripe.Subscription): string {
  return typeof sub.customer === "string" ? sub.customer : sub.customer.id;
}

export interface SyncOutcome {
  workspaceId: string | null;
  /** Why nothing was written, when nothing was. */
  ignored?: string;
}

/**
 * Writes the subscription's current state. `write` is the database handle of the caller's transaction, so that the
 * row and the processed-event record commit together.
 */
export async function syncStripeSubscription(
  write: Pick<Db, "subscription">,
  settings: StripeSettings,
  a: { workspaceId: string | null; sub: Stripe.Subscription; now: Date },
): Promise<SyncOutcome> {
  const { workspaceId, sub, now } = a;
  // The workspace is the one whose customer this is (resolved by the caller, outside the transaction).
  if (!workspaceId) return { workspaceId: null, ignored: "no workspace has this customer" };
  const item = sub.items.data[0];
  const priceId = item?.price?.id ?? null;
  const plan = priceId ? settings.planForPrice.get(priceId) : undefined;
  if (!plan) return { workspaceId, ignored: `price ${priceId ?? "(none)"} is not one of the configured plan prices` };
  const mirrored = mirroredStatus(sub.status);
  // Newer API versions keep the billing period on the item; older ones on the subscription.
  const periodEnd = toDate(
    item.current_period_end ?? (sub as unknown as { current_period_end?: number }).current_period_end,
  );
  const existing = await write.subscription.findFirst({ where: { stripeSubscriptionId: sub.id } });
  // Still past_due after its grace ended (grace.ts): the same failed payment gets no second grace period.
  const status = mirrored === "past_due" && existing?.status === "unpaid" ? "unpaid" : mirrored;
  const data = {
    plan,
    status,
    stripePriceId: priceId,
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end),
    // Grace counts from when it first fell due, not from the latest reminder.
    pastDueSince:
      status === "past_due"
        ? existing?.status === "past_due" && existing.pastDueSince
          ? existing.pastDueSince
          : now
        : status === "unpaid"
          ? (existing?.pastDueSince ?? now)
          : null,
    canceledAt: status === "canceled" ? (toDate(sub.ended_at ?? sub.canceled_at) ?? now) : null,
  };
  if (existing) await write.subscription.update({ where: { id: existing.id }, data });
  else
    await write.subscription.create({
      data: { id: newId("sub"), workspaceId, source: "stripe", stripeSubscriptionId: sub.id, ...data },
    });
  return { workspaceId };
}

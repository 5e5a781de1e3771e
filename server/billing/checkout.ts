// Owners buy plans through Stripe: Checkout for a new subscription, or an in-place price change when the workspace
// already holds a Suite or Lookups subscription (at most one tier subscription per workspace, plus optionally
// Email). Nothing here grants a plan: subscriptions change only from verified Stripe events (webhook.ts).
import type Stripe from "stripe";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { PLANS } from "../plans/catalog";
import { SELLABLE_PLANS, type SellablePlan, type StripeSettings } from "./config";
import { ensureStripeCustomer } from "./stripe";

export function isTierPlan(plan: string): boolean {
  return plan.startsWith("suite_") || plan.startsWith("lookups_");
}

export function parseSellablePlanOrThrow(input: unknown): SellablePlan {
  const plan = input && typeof input === "object" ? (input as { plan?: unknown }).plan : undefined;
  if (typeof plan !== "string" || !(SELLABLE_PLANS as string[]).includes(plan)) {
    throw new AppError("INVALID_REQUEST", `Send { "plan": one of ${SELLABLE_PLANS.join(", ")} }.`);
  }
  return plan as SellablePlan;
}

/** The workspace's live Stripe subscriptions (not yet canceled). */
function liveStripeSubscriptions(db: Db, workspaceId: string) {
  return db.subscription.findMany({ where: { workspaceId, source: "stripe", status: { in: ["active", "past_due"] } } });
}

export async function startCheckout(
  db: Db,
  stripe: Stripe,
  settings: StripeSettings,
  a: { workspaceId: string; plan: SellablePlan; email: string | null; origin: string },
): Promise<{ url: string; updated: boolean }> {
  const ws = await db.workspace.findUniqueOrThrow({
    where: { id: a.workspaceId },
    select: { id: true, name: true, stripeCustomerId: true },
  });
  const price = settings.prices[a.plan];
  const live = await liveStripeSubscriptions(db, a.workspaceId);
  const same = live.find((s) => s.plan === a.plan);
  if (same)
    throw new AppError(
      "CONFLICT",
      `This workspace already pays for ${PLANS[a.plan].name}; manage it in the billing portal.`,
    );
  const tier = isTierPlan(a.plan) ? live.find((s) => isTierPlan(s.plan) && s.stripeSubscriptionId) : undefined;
  if (tier) {
    // Another tier: change the price of the one tier subscription (Stripe prorates); the plan itself changes when
    // the resulting customer.subscription.updated event arrives.
    const current = await stripe.subscriptions.retrieve(tier.stripeSubscriptionId!);
    const item = current.items.data[0];
    await stripe.subscriptions.update(current.id, {
      items: [{ id: item.id, price }],
      proration_behavior: "create_prorations",
      metadata: { workspace_id: ws.id, plan: a.plan },
    });
    return { url: `${a.origin}/dashboard/plan?billing=updated`, updated: true };
  }
  const customer = await ensureStripeCustomer(db, stripe, ws, a.email);
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: ws.id,
    line_items: [{ price, quantity: 1 }],
    success_url: `${a.origin}/dashboard/plan?billing=success`,
    cancel_url: `${a.origin}/dashboard/plan?billing=canceled`,
    metadata: { workspace_id: ws.id, plan: a.plan },
    subscription_data: { metadata: { workspace_id: ws.id, plan: a.plan } },
  });
  if (!session.url) throw new Error("Stripe returned a Checkout session without a URL");
  return { url: session.url, updated: false };
}

/** The Customer Portal (payment methods, invoices, cancellation) for a workspace that has a Stripe customer. */
export async function openPortal(
  db: Db,
  stripe: Stripe,
  a: { workspaceId: string; origin: string },
): Promise<{ url: string }> {
  const ws = await db.workspace.findUniqueOrThrow({ where: { id: a.workspaceId }, select: { stripeCustomerId: true } });
  if (!ws.stripeCustomerId)
    throw new AppError("CONFLICT", "This workspace has no billing account yet: subscribe to a plan first.");
  const session = await stripe.billingPortal.sessions.create({
    customer: ws.stripeCustomerId,
    return_url: `${a.origin}/dashboard/plan`,
  });
  return { url: session.url };
}

// The official Stripe client, built from the current settings (STRIPE_API_BASE points it at a local fake in tests)
// and cached per configuration, plus the one Stripe customer each workspace has.
import Stripe from "stripe";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { billingMode, stripeSettings, type StripeSettings } from "./config";

const g = globalThis as unknown as { __serviceStripe?: { key: string; client: Stripe } };

export function stripeClient(settings: StripeSettings = stripeSettings()): Stripe {
  const key = JSON.stringify([settings.secretKey, settings.api]);
  if (g.__serviceStripe?.key === key) return g.__serviceStripe.client;
  const client = new Stripe(settings.secretKey, {
    ...(settings.api ?? {}),
    maxNetworkRetries: 1,
    timeout: 20_000,
    appInfo: { name: "service-billing" },
  });
  g.__serviceStripe = { key, client };
  return client;
}

export function assertStripeMode(): StripeSettings {
  if (billingMode() !== "stripe") {
    throw new AppError(
      "NOT_FOUND",
      "Online payment is not enabled here: the operator grants plans. See the plan page for how to ask for a change.",
    );
  }
  return stripeSettings();
}

/** The workspace's Stripe customer, created on first use (idempotently, so two parallel Checkouts make one). */
export async function ensureStripeCustomer(
  db: Db,
  stripe: Stripe,
  workspace: { id: string; name: string; stripeCustomerId: string | null },
  email: string | null,
) {
  if (workspace.stripeCustomerId) return workspace.stripeCustomerId;
  const customer = await stripe.customers.create(
    { name: workspace.name, email: email ?? undefined, metadata: { workspace_id: workspace.id } },
    { idempotencyKey: `workspace-customer-${workspace.id}` },
  );
  // Only the first writer sets it; a parallel request reads back the same customer (same idempotency key).
  await db.workspace.updateMany({
    where: { id: workspace.id, stripeCustomerId: null },
    data: { stripeCustomerId: customer.id },
  });
  const row = await db.workspace.findUniqueOrThrow({ where: { id: workspace.id }, select: { stripeCustomerId: true } });
  return row.stripeCustomerId!;
}

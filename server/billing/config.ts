// Billing settings, read at call time so tests and the e2e server can set them per process. SERVICE_BILLING picks
// who grants plans: the operator only (`operator`, the default, for self-hosting) or Stripe payments plus the
// operator (`stripe`). A half-configured Stripe mode is an operator error that stops start-up, naming what is missing.
import { setting, settingOf, variableOf } from "../env";
import { PLAN_SLUGS, type PlanSlug } from "../plans/catalog";

export type BillingMode = "operator" | "stripe";

/** Plans sold through Stripe Checkout: every paid plan. Free is what a workspace has without any plan. */
export const SELLABLE_PLANS = PLAN_SLUGS.filter((p) => p !== "free") as Exclude<PlanSlug, "free">[];
export type SellablePlan = (typeof SELLABLE_PLANS)[number];

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Price id per sellable plan, and the reverse map used to read subscriptions. */
  prices: Record<SellablePlan, string>;
  planForPrice: Map<string, SellablePlan>;
  /** Where the official client sends API calls; null means Stripe's own API. Tests point it at a local fake. */
  api: { host: string; port: number; protocol: "http" | "https" } | null;
}

export function priceVariable(plan: SellablePlan): string {
  return variableOf("SERVICE_STRIPE_PRICE_<PLAN>", plan.toUpperCase());
}

export function billingMode(): BillingMode {
  return setting("SERVICE_BILLING");
}

/** How owners ask the operator for a plan change: a URL or an email address, shown on the plan page. */
export function billingContact(): { kind: "url" | "email"; value: string } | null {
  const v = setting("SERVICE_BILLING_CONTACT");
  if (!v) return null;
  if (/^https?:\/\//i.test(v)) return { kind: "url", value: v };
  return { kind: "email", value: v.replace(/^mailto:/i, "") };
}

/** Days a past_due Stripe subscription keeps its plan before it is dropped (derived at read time). */
export function graceDays(): number {
  return setting("SERVICE_BILLING_GRACE_DAYS");
}

function stripeApi(): StripeSettings["api"] {
  const base = setting("STRIPE_API_BASE");
  if (!base) return null;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`STRIPE_API_BASE is not a URL: ${base}`);
  }
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: Number(url.port || (protocol === "http" ? 80 : 443)), protocol };
}

/** The Stripe settings; throws naming every missing variable. Only meaningful when the mode is `stripe`. */
export function stripeSettings(): StripeSettings {
  const missing: string[] = [];
  const secretKey = setting("STRIPE_SECRET_KEY");
  const webhookSecret = setting("STRIPE_WEBHOOK_SECRET");
  if (!secretKey) missing.push("STRIPE_SECRET_KEY");
  if (!webhookSecret) missing.push("STRIPE_WEBHOOK_SECRET");
  const prices = {} as Record<SellablePlan, string>;
  const planForPrice = new Map<string, SellablePlan>();
  for (const plan of SELLABLE_PLANS) {
    const price = settingOf("SERVICE_STRIPE_PRICE_<PLAN>", plan.toUpperCase());
    if (!price) missing.push(priceVariable(plan));
    else {
      if (planForPrice.has(price))
        throw new Error(
          `${priceVariable(plan)} repeats the price id of ${priceVariable(planForPrice.get(price)!)}; each plan needs its own price.`,
        );
      prices[plan] = price;
      planForPrice.set(price, plan);
    }
  }
  if (missing.length) throw new Error(`SERVICE_BILLING=stripe needs ${missing.join(", ")}.`);
  return { secretKey: secretKey!, webhookSecret: webhookSecret!, prices, planForPrice, api: stripeApi() };
}

/** Start-up check: a wrong mode, grace period or incomplete Stripe configuration stops the server. */
export function assertBillingConfig(): BillingMode {
  const mode = billingMode();
  graceDays();
  if (mode === "stripe") stripeSettings();
  return mode;
}

// Start-up check of the billing settings: a wrong mode or an incomplete Stripe configuration stops the server with
// a message naming every missing variable; operator mode needs nothing.
import { afterEach, describe, expect, it } from "vitest";
import { assertBillingConfig, SELLABLE_PLANS, stripeSettings } from "../../server/billing/config";

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

function clearBilling() {
  for (const k of Object.keys(process.env))
    if (k.startsWith("STRIPE_") || k.startsWith("SERVICE_STRIPE_") || k.startsWith("SERVICE_BILLING"))
      delete process.env[k];
}

describe("billing settings", () => {
  it("defaults to operator mode and needs nothing else", () => {
    clearBilling();
    expect(assertBillingConfig()).toBe("operator");
  });

  it("sells every paid plan and refuses Stripe mode naming each missing variable", () => {
    clearBilling();
    expect(SELLABLE_PLANS).toEqual([
      "email",
      "suite_starter",
      "suite_business",
      "lookups_developer",
      "suite_agency",
      "lookups_growth",
    ]);
    process.env.SERVICE_BILLING = "stripe";
    process.env.STRIPE_SECRET_KEY = "sk_test_x";
    process.env.SERVICE_STRIPE_PRICE_EMAIL = "price_e";
    process.env.SERVICE_STRIPE_PRICE_SUITE_AGENCY = "price_a";
    expect(() => assertBillingConfig()).toThrow(
      "SERVICE_BILLING=stripe needs STRIPE_WEBHOOK_SECRET, SERVICE_STRIPE_PRICE_SUITE_STARTER, SERVICE_STRIPE_PRICE_SUITE_BUSINESS, SERVICE_STRIPE_PRICE_LOOKUPS_DEVELOPER, SERVICE_STRIPE_PRICE_LOOKUPS_GROWTH.",
    );
  });

  it("refuses an unknown mode, a bad grace period and a price shared by two plans", () => {
    clearBilling();
    process.env.SERVICE_BILLING = "paypal";
    expect(() => assertBillingConfig()).toThrow('SERVICE_BILLING must be "operator" or "stripe", not "paypal".');
    process.env.SERVICE_BILLING = "operator";
    process.env.SERVICE_BILLING_GRACE_DAYS = "soon";
    expect(() => assertBillingConfig()).toThrow(
      'SERVICE_BILLING_GRACE_DAYS must be a number of days (0 or more), not "soon".',
    );
    delete process.env.SERVICE_BILLING_GRACE_DAYS;
    process.env.STRIPE_SECRET_KEY = "sk_test_x";
    process.env.STRIPE_WEBHOOK_SECRET = "whsec_x";
    for (const p of SELLABLE_PLANS) process.env[`SERVICE_STRIPE_PRICE_${p.toUpperCase()}`] = `price_${p}`;
    process.env.SERVICE_STRIPE_PRICE_LOOKUPS_GROWTH = "price_suite_agency";
    expect(() => stripeSettings()).toThrow(
      "SERVICE_STRIPE_PRICE_LOOKUPS_GROWTH repeats the price id of SERVICE_STRIPE_PRICE_SUITE_AGENCY; each plan needs its own price.",
    );
  });

  it("points the Stripe client at STRIPE_API_BASE when set", () => {
    clearBilling();
    process.env.STRIPE_SECRET_KEY = "sk_test_x";
    process.env.STRIPE_WEBHOOK_SECRET = "whsec_x";
    for (const p of SELLABLE_PLANS) process.env[`SERVICE_STRIPE_PRICE_${p.toUpperCase()}`] = `price_${p}`;
    expect(stripeSettings().api).toBeNull();
    process.env.STRIPE_API_BASE = "http://127.0.0.1:12111";
    expect(stripeSettings()).toMatchObject({
      api: { host: "127.0.0.1", port: 12111, protocol: "http" },
      prices: { suite_agency: "price_suite_agency" },
    });
  });
});

// Stripe mode end to end against a fake Stripe API on 127.0.0.1: Checkout and tier changes through the owner's
// routes, plans only from signed events, which are re-read from the API (replays and out-of-order deliveries
// converge), keys paused beyond a lower limit, past_due grace, cancellation at period end, bad signatures.
import { afterAll, describe, expect, it } from "vitest";
import { authenticateApiKeyOrThrow } from "../../server/keys/authenticate";
import { createApiKey } from "../../server/keys/keys";
import { endExpiredGrace } from "../../server/billing/grace";
import { billingStatus } from "../../server/billing/status";
import { workspaceEntitlements } from "../../server/workspaces/workspaces";
import { createTestApp } from "../harness";
import { startFakeStripe, stripeEnv } from "./fake-stripe";
import { auditPlanEvents, billingCall, ownerWithWorkspace, sendStripeEvent, subscriptionObject } from "./helpers";

const fake = await startFakeStripe();
Object.assign(process.env, stripeEnv(fake));
const app = await createTestApp();
afterAll(() => fake.close());

const plansOf = async (ws: string) => (await workspaceEntitlements(app.db, ws)).plans;
const customerOf = async (ws: string) =>
  (await app.db.workspace.findUniqueOrThrow({ where: { id: ws } })).stripeCustomerId!;

/** An owner who completed Checkout for `plan`: the customer exists, Stripe holds the subscription, the event came. */
async function subscribed(label: string, plan: string, subId: string) {
  const o = await ownerWithWorkspace(app.db, label);
  expect((await billingCall("checkout", { user: o.user, workspaceId: o.workspaceId, body: { plan } })).status).toBe(
    200,
  );
  const customer = await customerOf(o.workspaceId);
  fake.putSubscription({ id: subId, customer, price: `price_${plan}` });
  const ev = await sendStripeEvent("checkout.session.completed", {
    id: `cs_${subId}`,
    object: "checkout.session",
    customer,
    subscription: subId,
  });
  expect(ev.status).toBe(200);
  return { ...o, customer };
}

describe("Stripe billing", () => {
  it("takes an owner from Checkout to an active plan only once Stripe's signed event arrives", async () => {
    const o = await ownerWithWorkspace(app.db, "checkout");
    const res = await billingCall("checkout", {
      user: o.user,
      workspaceId: o.workspaceId,
      body: { plan: "suite_agency" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: expect.stringMatching(new RegExp(`^${fake.url}/checkout/cs_fake\\d+$`)),
      updated: false,
    });
    const session = fake.calls.filter((c) => c.path === "/v1/checkout/sessions").at(-1)!;
    const customer = await customerOf(o.workspaceId);
    expect(session.params).toMatchObject({
      mode: "subscription",
      customer,
      "line_items[0][price]": "price_suite_agency",
      "line_items[0][quantity]": "1",
      client_reference_id: o.workspaceId,
      success_url: "http://127.0.0.1:3000/dashboard/plan?billing=success",
    });
    // Paying is not the owner's word: nothing changes until the event.
    expect(await plansOf(o.workspaceId)).toEqual(["free"]);

    fake.putSubscription({ id: "sub_checkout", customer, price: "price_suite_agency" });
    const ev = await sendStripeEvent("checkout.session.completed", {
      id: "cs_x",
      object: "checkout.session",
      customer,
      subscription: "sub_checkout",
    });
    expect(ev).toMatchObject({
      status: 200,
      body: { received: true, workspace_id: o.workspaceId, plans: ["suite_agency"] },
    });
    expect(await plansOf(o.workspaceId)).toEqual(["suite_agency"]);
    const viaKey = await authenticateApiKeyOrThrow(app.db, o.apiKey);
    expect(viaKey.entitlements).toMatchObject({
      plans: ["suite_agency"],
      monthlyUnits: 250_000,
      members: 25,
      senders: 25,
    });
    expect(await auditPlanEvents(app.db, o.workspaceId)).toEqual([
      { actor: `stripe:${ev.id}`, before: { plans: ["free"] }, after: { plans: ["suite_agency"], paused_keys: 0 } },
    ]);
  });

  it("reuses the workspace's one Stripe customer and refuses a plan it already pays for", async () => {
    const o = await subscribed("reuse", "email", "sub_reuse_email");
    const again = await billingCall("checkout", { user: o.user, workspaceId: o.workspaceId, body: { plan: "email" } });
    expect(again).toEqual({
      status: 409,
      body: {
        error: {
          code: "CONFLICT",
          message: "This workspace already pays for Paid Email subscription; manage it in the billing portal.",
        },
      },
    });
    const suite = await billingCall("checkout", {
      user: o.user,
      workspaceId: o.workspaceId,
      body: { plan: "suite_starter" },
    });
    expect(suite.status).toBe(200);
    expect(
      fake.calls.filter((c) => c.path === "/v1/customers" && c.params["metadata[workspace_id]"] === o.workspaceId),
    ).toHaveLength(1);
  });

  it("upgrades by changing the price of the one tier subscription, applied when Stripe confirms", async () => {
    const o = await subscribed("upgrade", "suite_starter", "sub_upgrade");
    const res = await billingCall("checkout", {
      user: o.user,
      workspaceId: o.workspaceId,
      body: { plan: "suite_business" },
    });
    expect(res).toEqual({
      status: 200,
      body: { url: "http://127.0.0.1:3000/dashboard/plan?billing=updated", updated: true },
    });
    const update = fake.calls.filter((c) => c.method === "POST" && c.path === "/v1/subscriptions/sub_upgrade").at(-1)!;
    expect(update.params).toMatchObject({
      "items[0][id]": "si_sub_upgrade",
      "items[0][price]": "price_suite_business",
    });
    expect(await plansOf(o.workspaceId)).toEqual(["suite_starter"]);
    await sendStripeEvent("customer.subscription.updated", subscriptionObject("sub_upgrade", o.customer));
    expect(await plansOf(o.workspaceId)).toEqual(["suite_business"]);
    expect(await app.db.subscription.count({ where: { workspaceId: o.workspaceId, source: "stripe" } })).toBe(1);
  });

  it("downgrades at once: keys beyond the new limit pause (oldest stay), webhook deliveries pause, and both return on upgrade", async () => {
    const o = await subscribed("downgrade", "suite_business", "sub_down");
    const keys = [o.apiKeyId];
    for (let i = 0; i < 4; i++)
      keys.push((await createApiKey(app.db, { workspaceId: o.workspaceId, name: `k${i}` })).key.id);
    await app.db.webhook.create({
      data: {
        id: "wh_down",
        workspaceId: o.workspaceId,
        name: "h",
        url: "https://hooks.example/x",
        eventTypes: ["high_risk_assessment"],
        secret: "unused",
      },
    });
    const delivery = (id: string, ageMs: number) => ({
      id,
      webhookId: "wh_down",
      workspaceId: o.workspaceId,
      eventType: "high_risk_assessment",
      requestId: `req_${id}`,
      payload: {},
      status: "paused",
      createdAt: new Date(Date.now() - ageMs),
    });
    await app.db.webhookDelivery.createMany({
      data: [delivery("dl_young", 3_600_000), delivery("dl_old", 40 * 3_600_000)],
    });

    fake.putSubscription({ id: "sub_down", customer: o.customer, price: "price_suite_starter" }); // 3 keys
    const ev = await sendStripeEvent("customer.subscription.updated", subscriptionObject("sub_down", o.customer));
    expect(ev.body.plans).toEqual(["suite_starter"]);
    const status = async () =>
      Object.fromEntries(
        (await app.db.apiKey.findMany({ where: { workspaceId: o.workspaceId } })).map((k) => [k.id, k.status]),
      );
    expect(await status()).toEqual(Object.fromEntries(keys.map((k, i) => [k, i < 3 ? "active" : "paused"])));
    await expect(authenticateApiKeyOrThrow(app.db, o.apiKey)).resolves.toMatchObject({ entitlements: { apiKeys: 3 } });

    fake.putSubscription({ id: "sub_down", customer: o.customer, price: "price_suite_agency" });
    await sendStripeEvent("customer.subscription.updated", subscriptionObject("sub_down", o.customer));
    expect(Object.values(await status())).toEqual(["active", "active", "active", "active", "active"]);
    const deliveries = await app.db.webhookDelivery.findMany({
      where: { webhookId: "wh_down" },
      orderBy: { id: "asc" },
    });
    expect(deliveries.map((d) => [d.id, d.status])).toEqual([
      ["dl_old", "expired"],
      ["dl_young", "pending"],
    ]);

    fake.putSubscription({ id: "sub_down", customer: o.customer, price: "price_suite_starter" });
    await sendStripeEvent("customer.subscription.updated", subscriptionObject("sub_down", o.customer));
    expect((await app.db.webhookDelivery.findUniqueOrThrow({ where: { id: "dl_young" } })).status).toBe("paused");
    const audit = await auditPlanEvents(app.db, o.workspaceId);
    expect(audit.map((a) => a.after.plans)).toEqual([
      ["suite_business"],
      ["suite_starter"],
      ["suite_agency"],
      ["suite_starter"],
    ]);
  });

  it("keeps a past_due plan for the grace period, then drops it (keys beyond the limit pause) until Stripe is paid", async () => {
    const o = await subscribed("pastdue", "lookups_growth", "sub_pastdue");
    fake.putSubscription({
      id: "sub_pastdue",
      customer: o.customer,
      price: "price_lookups_growth",
      status: "past_due",
    });
    const failedAt = new Date(Date.now() - 6 * 86_400_000);
    await sendStripeEvent(
      "invoice.payment_failed",
      { id: "in_1", object: "invoice", customer: o.customer, subscription: "sub_pastdue" },
      { now: failedAt },
    );
    expect(await plansOf(o.workspaceId)).toEqual(["lookups_growth"]);
    const status = await billingStatus(app.db, o.workspaceId);
    expect(status.subscriptions).toEqual([
      expect.objectContaining({
        plan: "lookups_growth",
        source: "stripe",
        status: "past_due",
        graceEndsAt: new Date(failedAt.getTime() + 7 * 86_400_000).toISOString(),
      }),
    ]);
    // Another reminder does not restart the grace period.
    await sendStripeEvent("invoice.payment_failed", {
      id: "in_2",
      object: "invoice",
      customer: o.customer,
      subscription: "sub_pastdue",
    });
    const second = await createApiKey(app.db, { workspaceId: o.workspaceId, name: "second" });
    await app.db.subscription.updateMany({
      where: { stripeSubscriptionId: "sub_pastdue" },
      data: { pastDueSince: new Date(Date.now() - 8 * 86_400_000) },
    });
    expect(await plansOf(o.workspaceId)).toEqual(["free"]);
    await expect(authenticateApiKeyOrThrow(app.db, o.apiKey)).resolves.toMatchObject({
      entitlements: { plans: ["free"] },
    });

    // The hourly task carries out the rest of the change: the newer key pauses, and the audit trail says why.
    expect(await endExpiredGrace(app.db)).toEqual({ workspaces: 1 });
    expect((await app.db.apiKey.findUniqueOrThrow({ where: { id: second.key.id } })).status).toBe("paused");
    const lapsed = await app.db.event.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, type: "audit.plan.changed", actor: "system" },
    });
    expect(lapsed.data).toMatchObject({
      before: { plans: ["lookups_growth"] },
      after: { plans: ["free"], paused_keys: 1 },
    });
    expect(await endExpiredGrace(app.db)).toEqual({ workspaces: 0 });
    // A further reminder about the same failed payment does not open a new grace period.
    await sendStripeEvent("invoice.payment_failed", {
      id: "in_2b",
      object: "invoice",
      customer: o.customer,
      subscription: "sub_pastdue",
    });
    expect(await plansOf(o.workspaceId)).toEqual(["free"]);

    fake.putSubscription({ id: "sub_pastdue", customer: o.customer, price: "price_lookups_growth", status: "active" });
    await sendStripeEvent("invoice.paid", {
      id: "in_3",
      object: "invoice",
      customer: o.customer,
      parent: { subscription_details: { subscription: "sub_pastdue" } },
    });
    expect(await plansOf(o.workspaceId)).toEqual(["lookups_growth"]);
    expect((await app.db.apiKey.findUniqueOrThrow({ where: { id: second.key.id } })).status).toBe("active");
  });

  it("applies a cancellation at the end of the paid period", async () => {
    const o = await subscribed("cancel", "suite_business", "sub_cancel");
    const end = new Date(Date.now() + 10 * 86_400_000);
    fake.putSubscription({
      id: "sub_cancel",
      customer: o.customer,
      price: "price_suite_business",
      cancelAtPeriodEnd: true,
      periodEnd: end,
    });
    await sendStripeEvent("customer.subscription.updated", subscriptionObject("sub_cancel", o.customer));
    expect(await plansOf(o.workspaceId)).toEqual(["suite_business"]);
    expect((await billingStatus(app.db, o.workspaceId)).subscriptions[0]).toMatchObject({
      cancelAtPeriodEnd: true,
      currentPeriodEnd: new Date(Math.floor(end.getTime() / 1000) * 1000).toISOString(),
    });

    fake.putSubscription({ id: "sub_cancel", customer: o.customer, price: "price_suite_business", status: "canceled" });
    const ev = await sendStripeEvent("customer.subscription.deleted", subscriptionObject("sub_cancel", o.customer));
    expect(ev.body.plans).toEqual(["free"]);
    expect(await auditPlanEvents(app.db, o.workspaceId)).toContainEqual({
      actor: `stripe:${ev.id}`,
      before: { plans: ["suite_business"] },
      after: { plans: ["free"], paused_keys: 0 },
    });
  });

  it("treats a replayed event as done and an out-of-order one by Stripe's current state", async () => {
    const o = await subscribed("replay", "suite_starter", "sub_replay");
    fake.putSubscription({ id: "sub_replay", customer: o.customer, price: "price_suite_starter", status: "canceled" });
    const deleted = await sendStripeEvent(
      "customer.subscription.deleted",
      subscriptionObject("sub_replay", o.customer),
    );
    const replay = await sendStripeEvent(
      "customer.subscription.deleted",
      subscriptionObject("sub_replay", o.customer),
      { id: deleted.id },
    );
    expect(replay).toMatchObject({ status: 200, body: { received: true, duplicate: true } });
    expect(await app.db.stripeEvent.count({ where: { id: deleted.id } })).toBe(1);
    // An older "active" event delivered late: the subscription is read again and stays canceled.
    const late = await sendStripeEvent("customer.subscription.updated", {
      ...subscriptionObject("sub_replay", o.customer),
      status: "active",
    });
    expect(late.status).toBe(200);
    expect(await plansOf(o.workspaceId)).toEqual(["free"]);
    expect((await auditPlanEvents(app.db, o.workspaceId)).length).toBe(2);
  });

  it("records and ignores events about subscriptions Stripe does not know or customers that are not a workspace's", async () => {
    const unknown = await sendStripeEvent("customer.subscription.updated", {
      id: "sub_nowhere",
      object: "subscription",
      customer: "cus_nowhere",
      status: "active",
    });
    expect(unknown).toMatchObject({
      status: 200,
      body: { received: true, ignored: "subscription sub_nowhere is unknown to Stripe" },
    });
    fake.putSubscription({ id: "sub_foreign", customer: "cus_other_product", price: "price_suite_agency" });
    const foreign = await sendStripeEvent(
      "customer.subscription.created",
      subscriptionObject("sub_foreign", "cus_other_product"),
    );
    expect(foreign).toMatchObject({ status: 200, body: { received: true, ignored: "no workspace has this customer" } });
    const other = await sendStripeEvent("customer.created", { id: "cus_y", object: "customer" });
    expect(other).toMatchObject({
      status: 200,
      body: { received: true, ignored: "event type customer.created does not change a plan" },
    });
    expect(await app.db.stripeEvent.count({ where: { id: { in: [unknown.id, foreign.id, other.id] } } })).toBe(3);
    expect(
      await app.db.subscription.count({ where: { stripeSubscriptionId: { in: ["sub_nowhere", "sub_foreign"] } } }),
    ).toBe(0);
  });

  it("answers a bad or missing signature with 400 and changes nothing", async () => {
    const o = await subscribed("badsig", "suite_starter", "sub_badsig");
    fake.putSubscription({ id: "sub_badsig", customer: o.customer, price: "price_suite_starter", status: "canceled" });
    const before = {
      events: await app.db.stripeEvent.count(),
      subs: await app.db.subscription.findMany({ where: { workspaceId: o.workspaceId } }),
    };
    const error = {
      error: {
        code: "INVALID_REQUEST",
        message: "The Stripe-Signature header is missing or does not match this endpoint's signing secret.",
      },
    };
    for (const opts of [{ secret: "whsec_someone_else" }, { tamper: true }, { noSignature: true }]) {
      const res = await sendStripeEvent(
        "customer.subscription.updated",
        subscriptionObject("sub_badsig", o.customer),
        opts,
      );
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: error });
    }
    expect(await app.db.stripeEvent.count()).toBe(before.events);
    expect(await app.db.subscription.findMany({ where: { workspaceId: o.workspaceId } })).toEqual(before.subs);
    expect(await plansOf(o.workspaceId)).toEqual(["suite_starter"]);
  });
});

describe("billing routes", () => {
  it("lets only a signed-in owner of the selected workspace, from the same origin, start Checkout or open the portal", async () => {
    const o = await ownerWithWorkspace(app.db, "routes");
    const body = { plan: "suite_starter" };
    expect(await billingCall("checkout", { user: null, workspaceId: o.workspaceId, body })).toEqual({
      status: 401,
      body: { error: { code: "UNAUTHORIZED", message: "Sign in first." } },
    });
    expect(
      await billingCall("checkout", { user: o.user, workspaceId: o.workspaceId, body, origin: "https://evil.example" }),
    ).toMatchObject({ status: 403, body: { error: { code: "ORIGIN_FORBIDDEN" } } });
    expect(
      await billingCall("checkout", { user: o.user, workspaceId: o.workspaceId, body, origin: null }),
    ).toMatchObject({ status: 403, body: { error: { code: "ORIGIN_FORBIDDEN" } } });
    const stranger = await ownerWithWorkspace(app.db, "stranger");
    expect(await billingCall("checkout", { user: stranger.user, workspaceId: o.workspaceId, body })).toEqual({
      status: 404,
      body: { error: { code: "NOT_FOUND", message: "No such workspace." } },
    });
    await app.db.member.create({
      data: {
        id: "mem_routes_member",
        workspaceId: o.workspaceId,
        email: stranger.user.email,
        userId: stranger.user.userId,
        role: "member",
      },
    });
    expect(await billingCall("portal", { user: stranger.user, workspaceId: o.workspaceId })).toEqual({
      status: 403,
      body: { error: { code: "FORBIDDEN", message: "Only workspace owners manage billing." } },
    });
    for (const bad of [{}, { plan: "free" }, { plan: "platinum" }]) {
      expect(await billingCall("checkout", { user: o.user, workspaceId: o.workspaceId, body: bad })).toMatchObject({
        status: 400,
        body: { error: { code: "INVALID_REQUEST" } },
      });
    }
    // A field Checkout does not take is refused, never dropped (README "Requests the API reads"), as on /v1.
    expect(
      await billingCall("checkout", {
        user: o.user,
        workspaceId: o.workspaceId,
        body: { plan: "suite_starter", coupon: "FREE100" },
      }),
    ).toEqual({
      status: 400,
      body: {
        error: { code: "INVALID_REQUEST", message: "Received unknown parameter: coupon. This operation takes: plan." },
      },
    });
    expect(await billingCall("portal", { user: o.user, workspaceId: o.workspaceId })).toEqual({
      status: 409,
      body: {
        error: { code: "CONFLICT", message: "This workspace has no billing account yet: subscribe to a plan first." },
      },
    });
    expect(await app.db.workspace.findUniqueOrThrow({ where: { id: o.workspaceId } })).toMatchObject({
      stripeCustomerId: null,
    });

    expect((await billingCall("checkout", { user: o.user, workspaceId: o.workspaceId, body })).status).toBe(200);
    // The portal takes no field: a return address sent to it is refused, not silently replaced by the service's own.
    const sessionsBefore = fake.calls.filter((c) => c.path === "/v1/billing_portal/sessions").length;
    expect(
      await billingCall("portal", {
        user: o.user,
        workspaceId: o.workspaceId,
        body: { return_url: "https://elsewhere.example/" },
      }),
    ).toEqual({
      status: 400,
      body: {
        error: {
          code: "INVALID_REQUEST",
          message: "Received unknown parameter: return_url. This operation takes: no parameters.",
        },
      },
    });
    expect(fake.calls.filter((c) => c.path === "/v1/billing_portal/sessions").length).toBe(sessionsBefore);
    const portal = await billingCall("portal", { user: o.user, workspaceId: o.workspaceId });
    expect(portal).toEqual({
      status: 200,
      body: { url: expect.stringMatching(new RegExp(`^${fake.url}/portal/bps_fake\\d+$`)) },
    });
    expect(fake.calls.filter((c) => c.path === "/v1/billing_portal/sessions").at(-1)!.params).toEqual({
      customer: await customerOf(o.workspaceId),
      return_url: "http://127.0.0.1:3000/dashboard/plan",
    });
    expect(await plansOf(o.workspaceId)).toEqual(["free"]);
  });

  it("answers 503 when Stripe cannot be reached, with nothing changed", async () => {
    const o = await ownerWithWorkspace(app.db, "down");
    const saved = process.env.STRIPE_API_BASE;
    process.env.STRIPE_API_BASE = "http://127.0.0.1:9";
    try {
      const res = await billingCall("checkout", { user: o.user, workspaceId: o.workspaceId, body: { plan: "email" } });
      expect(res).toEqual({
        status: 503,
        body: {
          error: { code: "UPSTREAM_UNAVAILABLE", message: "The payment provider did not answer; try again shortly." },
        },
        retryAfter: expect.stringMatching(/^\d+$/),
      });
    } finally {
      process.env.STRIPE_API_BASE = saved;
    }
    expect(await app.db.workspace.findUniqueOrThrow({ where: { id: o.workspaceId } })).toMatchObject({
      stripeCustomerId: null,
    });
  });
});

// Operator mode (the default): plans come from `npm run admin -- plan set` only. An owner calling every account
// procedure, or the billing and Stripe routes, gains nothing; the operator's grant combines with Stripe's by the
// highest figure and is audited with the command line.
import { describe, expect, it } from "vitest";
import { runAdminCommand } from "../../server/admin/commands";
import { accountRouter } from "../../server/api/routers/account";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { billingStatus } from "../../server/billing/status";
import { workspaceEntitlements } from "../../server/workspaces/workspaces";
import { createTestApp } from "../harness";
import { auditPlanEvents, billingCall, ORIGIN, ownerWithWorkspace, sendStripeEvent } from "./helpers";

delete process.env.SERVICE_BILLING;
process.env.SERVICE_BILLING_CONTACT = "plans@operator.example";
const app = await createTestApp();

/** Everything a plan-setting input could carry, so that no procedure is let off for lack of input. */
const GREEDY_INPUT = {
  plans: ["suite_agency", "lookups_growth"],
  plan: "suite_agency",
  name: "Greedy",
  email: "friend@billing.test",
  role: "owner",
  keyId: "key_none",
  memberId: "mem_none",
  status: "active",
};

async function callProcedure(
  path: string,
  type: string,
  user: Awaited<ReturnType<typeof ownerWithWorkspace>>["user"],
  ws: string,
) {
  const headers = new Headers({ "x-service-workspace": ws, "content-type": "application/json", origin: ORIGIN });
  const req =
    type === "query"
      ? new Request(`${ORIGIN}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(GREEDY_INPUT))}`, { headers })
      : new Request(`${ORIGIN}/api/trpc/${path}`, { method: "POST", headers, body: JSON.stringify(GREEDY_INPUT) });
  return (await handleDashboardRequest(req, async () => user)).status;
}

describe("operator billing", () => {
  it("gives an owner no plan through any account procedure, the old plan procedure, the billing routes or a Stripe event", async () => {
    const o = await ownerWithWorkspace(app.db, "greedy");
    const procedures = Object.entries(
      (accountRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })._def
        .procedures,
    );
    expect(procedures.length).toBeGreaterThan(5);
    expect(procedures.map(([name]) => name)).not.toContain("setPlans");
    for (const [name, proc] of procedures)
      await callProcedure(`account.${name}`, proc._def.type, o.user, o.workspaceId);
    expect(await callProcedure("account.setPlans", "mutation", o.user, o.workspaceId)).toBe(404);
    const checkout = await billingCall("checkout", {
      user: o.user,
      workspaceId: o.workspaceId,
      body: { plan: "suite_agency" },
    });
    expect(checkout.status).toBe(404);
    expect(checkout.body.error.code).toBe("NOT_FOUND");
    expect((await billingCall("portal", { user: o.user, workspaceId: o.workspaceId })).status).toBe(404);
    process.env.STRIPE_WEBHOOK_SECRET = "whsec_operator_mode";
    const ev = await sendStripeEvent("customer.subscription.updated", {
      id: "sub_x",
      object: "subscription",
      customer: "cus_x",
      status: "active",
    });
    expect(ev.status).toBe(404);

    expect((await workspaceEntitlements(app.db, o.workspaceId)).plans).toEqual(["free"]);
    expect(
      await app.db.subscription.findMany({ where: { workspaceId: o.workspaceId, plan: { not: "free" } } }),
    ).toEqual([]);
    expect(await auditPlanEvents(app.db, o.workspaceId)).toEqual([]);
  });

  it("grants plans by the operator's command, audited with the command line, combined with Stripe's by the highest figure", async () => {
    const o = await ownerWithWorkspace(app.db, "granted");
    // A Stripe subscription from an earlier Stripe-mode period stays and counts.
    await app.db.subscription.create({
      data: {
        id: "sub_row_stripe",
        workspaceId: o.workspaceId,
        plan: "suite_starter",
        status: "active",
        source: "stripe",
        stripeSubscriptionId: "sub_kept",
      },
    });
    const r = await runAdminCommand(app.db, ["plan", "set", "--workspace", o.workspaceId, "--plan", "email", "--json"]);
    expect(r.result).toMatchObject({ plans: ["email"], effectivePlans: ["email", "suite_starter"] });
    expect(await workspaceEntitlements(app.db, o.workspaceId)).toMatchObject({
      apiKeys: 3,
      members: 3,
      senders: 3,
      historyDays: 30,
      monthlyUnits: 1000,
    });
    const audit = await app.db.event.findFirstOrThrow({
      where: { workspaceId: o.workspaceId, type: "audit.plan.changed" },
    });
    expect(audit.actor).toBe("operator");
    expect(audit.data).toMatchObject({
      actor: { kind: "operator", command: `plan set --workspace ${o.workspaceId} --plan email` },
      target: { kind: "workspace", id: o.workspaceId },
      before: { plans: ["suite_starter"] },
      after: { plans: ["email", "suite_starter"], paused_keys: 0 },
    });

    await runAdminCommand(app.db, ["plan", "set", "--workspace", o.workspaceId, "--plan", "free"]);
    expect((await workspaceEntitlements(app.db, o.workspaceId)).plans).toEqual(["suite_starter"]);
    expect(await app.db.subscription.count({ where: { id: "sub_row_stripe", status: "active" } })).toBe(1);
  });

  it("tells owners the mode, their plans and whom to ask for a change", async () => {
    const o = await ownerWithWorkspace(app.db, "status", ["suite_business"]);
    expect(await billingStatus(app.db, o.workspaceId)).toEqual({
      mode: "operator",
      contact: { kind: "email", value: "plans@operator.example" },
      graceDays: 7,
      sellablePlans: [],
      hasBillingAccount: false,
      subscriptions: [
        {
          plan: "suite_business",
          source: "operator",
          status: "active",
          graceEndsAt: null,
          cancelAtPeriodEnd: false,
          currentPeriodEnd: null,
        },
      ],
    });
  });
});

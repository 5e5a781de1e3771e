// Shared steps for the billing tests: signed-in owners with their own workspace, the billing routes through their
// real handlers, and Stripe events signed with the official package's test header.
import Stripe from "stripe";
import type { SessionUser } from "../../server/api/context";
import { handleBillingRequest } from "../../server/api/http/billing";
import { handleStripeWebhook } from "../../server/billing/webhook";
import type { Db } from "../../server/db/client";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";

export const ORIGIN = "http://127.0.0.1:3000";

export async function ownerWithWorkspace(db: Db, label: string, plans: string[] = ["free"]) {
  const u = await ensureUser(db, { email: `${label}-${Math.random().toString(36).slice(2, 8)}@billing.test` });
  const user: SessionUser = { userId: u.id, email: u.email, name: null };
  const ws = await createWorkspace(db, {
    name: `${label} workspace`,
    plans,
    ownerEmail: user.email,
    ownerUserId: user.userId,
  });
  return { user, workspaceId: ws.workspaceId, apiKey: ws.apiKey, apiKeyId: ws.apiKeyId };
}

export async function billingCall(
  action: "checkout" | "portal",
  a: { user: SessionUser | null; workspaceId: string; body?: unknown; origin?: string | null },
): Promise<{ status: number; body: any; retryAfter?: string | null }> {
  const headers = new Headers({ "content-type": "application/json", "x-service-workspace": a.workspaceId });
  if (a.origin !== null) headers.set("origin", a.origin ?? ORIGIN);
  const req = new Request(`${ORIGIN}/api/billing/${action}`, {
    method: "POST",
    headers,
    body: JSON.stringify(a.body ?? {}),
  });
  const res = await handleBillingRequest(req, action, async () => a.user);
  const out: { status: number; body: any; retryAfter?: string | null } = { status: res.status, body: await res.json() };
  // Only present on refusals that say when to try again (every 503 does).
  if (res.headers.has("retry-after")) out.retryAfter = res.headers.get("retry-after");
  return out;
}

let eventSeq = 0;

/** Posts a Stripe event to the webhook route, signed with `secret` (the configured one unless a test says otherwise). */
export async function sendStripeEvent(
  type: string,
  object: Record<string, unknown>,
  opts: { id?: string; secret?: string; now?: Date; tamper?: boolean; noSignature?: boolean } = {},
): Promise<{ status: number; body: any; id: string }> {
  const id = opts.id ?? `evt_test_${Date.now()}_${++eventSeq}`;
  const payload = JSON.stringify({
    id,
    object: "event",
    type,
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const stripe = new Stripe("sk_test_unused");
  const header = stripe.webhooks.generateTestHeaderString({
    payload,
    secret: opts.secret ?? process.env.STRIPE_WEBHOOK_SECRET!,
  });
  const body = opts.tamper ? payload.replace(type, "customer.subscription.deleted") : payload;
  const headers = new Headers({ "content-type": "application/json" });
  if (!opts.noSignature) headers.set("stripe-signature", header);
  const res = await handleStripeWebhook(
    new Request(`${ORIGIN}/billing/stripe/webhook`, { method: "POST", headers, body }),
    opts.now,
  );
  return { status: res.status, body: await res.json(), id };
}

export const subscriptionObject = (id: string, customer: string) => ({
  id,
  object: "subscription",
  customer,
  status: "active",
});

export async function auditPlanEvents(db: Db, workspaceId: string) {
  const rows = await db.event.findMany({
    where: { workspaceId, type: "audit.plan.changed" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((r) => ({ actor: r.actor, before: (r.data as any).before, after: (r.data as any).after }));
}

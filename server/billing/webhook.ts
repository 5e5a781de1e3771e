// POST /billing/stripe/webhook: Stripe's subscription events. Stripe has no session and no API key; the signature
// (checked by the official package against STRIPE_WEBHOOK_SECRET) is its authentication. Each event id is
// processed once (StripeEvent), and the subscription is re-read from Stripe's API, so replays and out-of-order
// deliveries converge on Stripe's current state. A bad signature is 400 with nothing changed.
import type Stripe from "stripe";
import { getDb, type Db } from "../db/client";
import { AppError, toErrorBody } from "../errors";
import { readCapped } from "../http/read-capped";
import { newId } from "../ids";
import { billingMode, stripeSettings } from "./config";
import { applyPlanChange, effectivePlans } from "./plan-change";
import { stripeClient } from "./stripe";
import { customerIdOf, syncStripeSubscription } from "./sync";
import { logger } from "../operate/log";

const MAX_BODY_BYTES = 1_000_000;

function json(status: number, body: unknown, requestId: string): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Request-Id": requestId,
    },
  });
}

/** The subscription an event is about, for the event types that can change a plan; null for the rest. */
export function subscriptionIdOf(event: Stripe.Event): string | null {
  const o = event.data.object as unknown as Record<string, unknown>;
  const id = (v: unknown) =>
    typeof v === "string"
      ? v
      : v && typeof v === "object" && typeof (v as { id?: unknown }).id === "string"
        ? (v as { id: string }).id
        : null;
  if (event.type.startsWith("customer.subscription.")) return id(o.id);
  if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded")
    return id(o.subscription);
  if (event.type.startsWith("invoice.")) {
    const parent = o.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
    return id(o.subscription) ?? id(parent?.subscription_details?.subscription);
  }
  return null;
}

function isUniqueViolation(err: unknown): boolean {
  return Boolean(err && typeof err === "object" && (err as { code?: string }).code === "P2002");
}

export async function handleStripeWebhook(req: Request, now: Date = new Date()): Promise<Response> {
  const requestId = newId("req");
  try {
    if (billingMode() !== "stripe") throw new AppError("NOT_FOUND", "Stripe billing is not enabled on this service.");
    const settings = stripeSettings();
    const bytes = await readCapped(req.body, MAX_BODY_BYTES);
    if (bytes === null) throw new AppError("INVALID_REQUEST", "The event is larger than this endpoint accepts.");
    const payload = bytes.toString("utf8");
    const stripe = stripeClient(settings);
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(
        payload,
        req.headers.get("stripe-signature") ?? "",
        settings.webhookSecret,
      );
    } catch {
      throw new AppError(
        "INVALID_REQUEST",
        "The Stripe-Signature header is missing or does not match this endpoint's signing secret.",
      );
    }
    const db = await getDb();
    if (await db.stripeEvent.findUnique({ where: { id: event.id } }))
      return json(200, { received: true, duplicate: true }, requestId);
    const outcome = await processEvent(db, stripe, settings, event, now);
    return json(200, { received: true, ...outcome }, requestId);
  } catch (err) {
    const { status, body } = toErrorBody(err);
    if (status >= 500) logger().error({ err, request_id: requestId, component: "billing" }, "stripe webhook failed");
    return json(status, body, requestId);
  }
}

async function processEvent(
  db: Db,
  stripe: Stripe,
  settings: ReturnType<typeof stripeSettings>,
  event: Stripe.Event,
  now: Date,
) {
  const subscriptionId = subscriptionIdOf(event);
  const record = (tx: Pick<Db, "stripeEvent">, workspaceId: string | null) =>
    tx.stripeEvent.create({ data: { id: event.id, type: event.type, workspaceId } });
  if (!subscriptionId) {
    await record(db, null).catch((err) => {
      if (!isUniqueViolation(err)) throw err;
    });
    return { ignored: `event type ${event.type} does not change a plan` };
  }
  let sub: Stripe.Subscription;
  try {
    sub = await stripe.subscriptions.retrieve(subscriptionId);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) {
      // Not a subscription of this Stripe account (or deleted long ago): nothing to mirror, nothing to retry.
      await record(db, null).catch((e) => {
        if (!isUniqueViolation(e)) throw e;
      });
      return { ignored: `subscription ${subscriptionId} is unknown to Stripe` };
    }
    // Not recorded: Stripe retries the event, and the next attempt reads the subscription again.
    throw new AppError("UPSTREAM_UNAVAILABLE", "Could not read the subscription from Stripe; retry later.", {
      cause: err,
    });
  }
  const ws = await db.workspace.findUnique({ where: { stripeCustomerId: customerIdOf(sub) }, select: { id: true } });
  const before = ws ? await effectivePlans(db, ws.id, now) : [];
  let result: Awaited<ReturnType<typeof syncStripeSubscription>>;
  try {
    result = await db.$transaction(async (tx) => {
      const r = await syncStripeSubscription(tx, settings, { workspaceId: ws?.id ?? null, sub, now });
      await record(tx, r.workspaceId);
      return r;
    });
  } catch (err) {
    if (isUniqueViolation(err)) return { duplicate: true };
    throw err;
  }
  if (!result.workspaceId || result.ignored) return { ignored: result.ignored };
  const change = await applyPlanChange(db, {
    workspaceId: result.workspaceId,
    before,
    actor: { kind: "stripe", eventId: event.id },
    requestId: null,
    now,
  });
  return { workspace_id: result.workspaceId, plans: change.plans };
}

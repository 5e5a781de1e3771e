// {account_url}/api/billing/checkout and /api/billing/portal over plain HTTP (shared adapter: respond.ts): the dashboard's session,
// workspace selection and same-Origin rule (createAccountContext), owners only, answered as `{ url }` or
// `{error:{code,message}}`. The session lookup is passed in, so the routes supply next-auth's and tests a fixed user.
import type { SessionUser } from "../../auth/principal";
import { openPortal, parseSellablePlanOrThrow, startCheckout } from "../../billing/checkout";
import { assertStripeMode, stripeClient } from "../../billing/stripe";
import { AppError } from "../../errors";
import { createAccountContext, expectedOrigin } from "./dashboard-context";
import { withRequestLine, type RequestLineSeen } from "./request-line";
import { errorResponse, json, notFound, readJsonBodyOrThrow, refuseUnknownParameters, startResponse } from "./respond";

const MAX_BODY_BYTES = 10_000;
const CHECKOUT_FIELDS: ReadonlySet<string> = new Set(["plan"]);
const PORTAL_FIELDS: ReadonlySet<string> = new Set();

export function handleBillingRequest(
  req: Request,
  action: "checkout" | "portal",
  getSessionUser: () => Promise<SessionUser | null>,
): Promise<Response> {
  return withRequestLine(req, `/api/billing/${action}`, (seen) => answer(req, action, getSessionUser, seen));
}

async function answer(
  req: Request,
  action: "checkout" | "portal",
  getSessionUser: () => Promise<SessionUser | null>,
  seen: RequestLineSeen,
): Promise<Response> {
  const { requestId, headers } = startResponse(req);
  try {
    if (req.method !== "POST") throw notFound(headers, "POST");
    const ctx = await createAccountContext(req, getSessionUser, requestId, seen);
    const db = ctx.db;
    const principal = await ctx.authenticate();
    if (principal.kind !== "member" || principal.role !== "owner")
      throw new AppError("FORBIDDEN", "Only workspace owners manage billing.");
    const settings = assertStripeMode();
    const stripe = stripeClient(settings);
    const origin = expectedOrigin(req);
    // A field the route does not take is refused rather than dropped (README "Requests the API reads").
    const sent = await readJsonBodyOrThrow(req, MAX_BODY_BYTES);
    refuseUnknownParameters(sent, action === "checkout" ? CHECKOUT_FIELDS : PORTAL_FIELDS);
    const body =
      action === "checkout"
        ? await startCheckout(db, stripe, settings, {
            workspaceId: principal.workspaceId,
            plan: parseSellablePlanOrThrow(sent),
            email: principal.email,
            origin,
          })
        : await openPortal(db, stripe, { workspaceId: principal.workspaceId, origin });
    return json(200, body, headers);
  } catch (err) {
    // A Stripe failure is the payment provider being unavailable (503 with Retry-After), logged with its cause.
    const stripeDown =
      err &&
      typeof err === "object" &&
      typeof (err as { type?: unknown }).type === "string" &&
      String((err as { type: string }).type).startsWith("Stripe");
    const shaped = stripeDown
      ? new AppError("UPSTREAM_UNAVAILABLE", "The payment provider did not answer; try again shortly.", { cause: err })
      : err;
    return errorResponse(shaped, headers, requestId, `billing ${action}`, seen);
  }
}

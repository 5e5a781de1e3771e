// {account_url}/api/billing/checkout and /api/billing/portal over plain HTTP: the dashboard door's session,
// workspace selection and same-Origin rule (createDashboardContext), owners only, answered as `{ url }` or
// `{error:{code,message}}`. The session lookup is passed in, so the routes supply next-auth's and tests a fixed user.
import type { SessionUser } from "../api/context";
import { createDashboardContext, expectedOrigin } from "../auth/dashboard-context";
import { getDb } from "../db/client";
import { AppError, toErrorBody } from "../errors";
import { readCapped } from "../http/read-capped";
import { newId } from "../ids";
import { openPortal, parseSellablePlanOrThrow, startCheckout } from "./checkout";
import { assertStripeMode, stripeClient } from "./stripe";

const MAX_BODY_BYTES = 10_000;

async function readJsonObject(req: Request): Promise<unknown> {
  const bytes = await readCapped(req.body, MAX_BODY_BYTES);
  if (bytes === null) throw new AppError("INVALID_REQUEST", `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
  if (bytes.length === 0) return {};
  if (!/^application\/(.+\+)?json\b/i.test(req.headers.get("content-type") ?? "")) {
    throw new AppError("INVALID_REQUEST", "Send the request body as JSON with Content-Type: application/json.");
  }
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new AppError("INVALID_REQUEST", "The request body is not valid JSON.");
  }
}

export async function handleBillingRequest(req: Request, action: "checkout" | "portal", getSessionUser: () => Promise<SessionUser | null>): Promise<Response> {
  const requestId = newId("req");
  const headers = new Headers({ "X-Request-Id": requestId, "Cache-Control": "private, no-store", "Content-Type": "application/json; charset=utf-8" });
  try {
    if (req.method !== "POST") {
      headers.set("Allow", "POST");
      throw new AppError("LOOKUP_NOT_FOUND", "No such route or method.");
    }
    const db = await getDb();
    const ctx = createDashboardContext({ db, req, sessionUser: await getSessionUser(), requestId });
    const principal = await ctx.authenticate();
    if (principal.kind !== "member" || principal.role !== "owner") throw new AppError("FORBIDDEN", "Only workspace owners manage billing.");
    const settings = assertStripeMode();
    const stripe = stripeClient(settings);
    const origin = expectedOrigin(req);
    const body =
      action === "checkout"
        ? await startCheckout(db, stripe, settings, {
            workspaceId: principal.workspaceId,
            plan: parseSellablePlanOrThrow(await readJsonObject(req)),
            email: principal.email,
            origin,
          })
        : await openPortal(db, stripe, { workspaceId: principal.workspaceId, origin });
    return new Response(JSON.stringify(body), { status: 200, headers });
  } catch (err) {
    const stripeDown = err && typeof err === "object" && typeof (err as { type?: unknown }).type === "string" && String((err as { type: string }).type).startsWith("Stripe");
    const shaped = toErrorBody(stripeDown ? new AppError("UPSTREAM_UNAVAILABLE", "The payment provider did not answer; try again shortly.", { cause: err }) : err);
    const { status, body } = shaped;
    if (status >= 500 || stripeDown) console.error(`[${requestId}] billing ${action}:`, err);
    // The error's own headers too: every 503 carries Retry-After.
    for (const [k, v] of Object.entries(shaped.headers)) headers.set(k, v);
    return new Response(JSON.stringify(body), { status, headers });
  }
}

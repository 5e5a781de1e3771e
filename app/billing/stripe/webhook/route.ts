// POST /billing/stripe/webhook: Stripe's signed subscription events (outside /api and /v1: no session, no key).
import { handleStripeWebhook } from "../../../../server/billing/webhook";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function POST(req: Request) {
  return handleStripeWebhook(req);
}

// {account_url}/api/billing/checkout: an owner starts Stripe Checkout for a plan (SERVICE_BILLING=stripe).
import { getSessionUser } from "../../../../server/auth/session";
import { handleBillingRequest } from "../../../../server/api/http/billing";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = (req: Request) => handleBillingRequest(req, "checkout", getSessionUser);

export { handler as GET, handler as POST };

// {account_url}/api/billing/portal: an owner opens the Stripe Customer Portal (SERVICE_BILLING=stripe).
import { getSessionUser } from "../../../../server/auth/session";
import { handleBillingRequest } from "../../../../server/api/http/billing";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = (req: Request) => handleBillingRequest(req, "portal", getSessionUser);

export { handler as GET, handler as POST };

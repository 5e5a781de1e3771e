// {account_url}/api/billing/portal: an owner opens the Stripe Customer Portal (SERVICE_BILLING=stripe).
import { getSessionUser } from "../../../../server/auth/session";
import { handleBillingRequest } from "../../../../server/api/http/billing";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = (req: Request) => handleBillingRequest(req, "portal", getSessionUser);

// Every method reaches the handler: one it does not take is its JSON 404, not Next's empty 405.
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };

// {account_url}/api/account/senders: list (GET, owners and members) and add (POST, owners) sender slots with a
// next-auth session and the selected workspace. API keys get 401.
import { getSessionUser } from "../../../../server/auth/session";
import { handleSendersRequest } from "../../../../server/api/http/senders";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = (req: Request) => handleSendersRequest(req, getSessionUser);

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };

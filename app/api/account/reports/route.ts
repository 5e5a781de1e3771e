// {account_url}/api/account/reports: save (POST, 1 unit) and list (GET, unmetered) saved fraud reports with a
// next-auth session and the selected workspace.
import { getSessionUser } from "../../../../server/auth/session";
import { handleReportsRequest } from "../../../../server/api/http/reports";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = (req: Request) => handleReportsRequest(req, getSessionUser);

// Every method reaches the handler: one it does not take is its JSON 404, not Next's empty 405.
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };

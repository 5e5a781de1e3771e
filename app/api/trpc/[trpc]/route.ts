// The dashboard's tRPC endpoint: the same procedures as /v1, reached with a next-auth session and a selected workspace.
import { handleDashboardRequest } from "../../../../server/api/http/dashboard";
import { getSessionUser } from "../../../../server/auth/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = (req: Request) => handleDashboardRequest(req, getSessionUser);

// Every method reaches the handler: one tRPC does not take is its JSON 404 LOOKUP_NOT_FOUND, not Next's empty 405.
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };

// The dashboard's tRPC endpoint: the same procedures as /v1, reached with a next-auth session and a selected workspace.
import { handleDashboardRequest } from "../../../../server/api/http/dashboard";
import { getSessionUser } from "../../../../server/auth/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = (req: Request) => handleDashboardRequest(req, getSessionUser);

export { handler as GET, handler as POST };

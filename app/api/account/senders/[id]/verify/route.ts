// {account_url}/api/account/senders/{id}/verify: POST looks up the sender's TXT record and verifies it (owners).
import { getSessionUser } from "../../../../../../server/auth/session";
import { handleSendersRequest } from "../../../../../../server/api/http/senders";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = (req: Request) => handleSendersRequest(req, getSessionUser);

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };

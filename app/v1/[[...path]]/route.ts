// The REST API at /v1: every method goes to the one handler, which decides 404 LOOKUP_NOT_FOUND itself
// (HEAD and OPTIONS included) before any authentication or quota work.
import { handleRestRequest } from "../../../server/api/rest/handler";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handle = (req: Request) => handleRestRequest(req);

export {
  handle as GET,
  handle as POST,
  handle as PUT,
  handle as PATCH,
  handle as DELETE,
  handle as HEAD,
  handle as OPTIONS,
};

// Any other path under /api (/api/nope, /api/account/nope): the JSON 404 LOOKUP_NOT_FOUND the entries under /api
// answer for a path or method they do not serve (server/api/http/respond.ts notFound), not Next's HTML page.
import { notFound, json, startResponse } from "../../../server/api/http/respond";
import { toErrorBody } from "../../../server/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = (req: Request) => {
  const { headers } = startResponse(req);
  const { status, body } = toErrorBody(notFound(headers));
  return json(status, body, headers);
};

export {
  handler as GET,
  handler as POST,
  handler as PUT,
  handler as PATCH,
  handler as DELETE,
  handler as HEAD,
  handler as OPTIONS,
};

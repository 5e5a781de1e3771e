// The REST API at /v1: every method goes to the one handler, which decides 404 LOOKUP_NOT_FOUND itself
// (HEAD and OPTIONS included) before any authentication or quota work. The production server also finds, on the
// handler, the REST door itself (server/api/rest/plain-door.ts; scripts/rest-direct.mjs), which it hands node:http's
// request without building a web Request.
import { handleRestRequest } from "../../../server/api/rest/handler";
import { answerPlain, answersWithoutDatabase, routeLabelOf } from "../../../server/api/rest/plain-door";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handle = Object.assign((req: Request) => handleRestRequest(req), {
  plain: { answer: answerPlain, answersWithoutDatabase, routeLabel: routeLabelOf },
});

export {
  handle as GET,
  handle as POST,
  handle as PUT,
  handle as PATCH,
  handle as DELETE,
  handle as HEAD,
  handle as OPTIONS,
};

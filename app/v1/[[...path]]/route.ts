// The REST API at /v1: every method goes to the one handler, which decides 404 LOOKUP_NOT_FOUND itself
// (HEAD and OPTIONS included) before any authentication or quota work. The production server also finds, on the
// handler, the plain door of POST /v1/assess (server/api/rest/assess-door.ts; scripts/rest-direct.mjs).
import { handleRestRequest } from "../../../server/api/rest/handler";
import { answerPlain, takesPlainDoor } from "../../../server/api/rest/assess-door";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handle = Object.assign((req: Request) => handleRestRequest(req), {
  plain: { takes: takesPlainDoor, answer: answerPlain },
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

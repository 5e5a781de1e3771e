// {account_url}/api/account/reports over plain HTTP: the dashboard's session, workspace selection and same-Origin
// rule (createAccountContext), then the reportsRouter procedures, answered through the shared adapter
// (respond.ts). The session lookup is passed in, so the route supplies next-auth's and tests a fixed user.
import type { SessionUser } from "../../auth/principal";
import { listReportsInput } from "../../reports/schemas";
import { declaredFieldsOfSchema } from "../input-fields";
import type { QueryKeys } from "../rest/query-params";
import { reportsRouter } from "../routers/reports";
import { createCallerFactory } from "../trpc";
import { createAccountContext } from "./dashboard-context";
import { withRequestLine, type RequestLineSeen } from "./request-line";
import {
  copyProcedureHeaders,
  errorResponse,
  json,
  notFound,
  readProcedureInput,
  readQueryOrThrow,
  refuseUnknownParameters,
  startResponse,
} from "./respond";

// Above the 256 KB report limit, with room for the title and JSON framing.
const MAX_BODY_BYTES = 300_000;
const createCaller = createCallerFactory(reportsRouter);
/** The list's query: `limit` is a number (listReportsInput), `cursor` text. */
const LIST_QUERY: QueryKeys = { arrayKeys: new Set(), numberKeys: new Set(["limit"]) };
const LIST_FIELDS = declaredFieldsOfSchema(listReportsInput);

export function handleReportsRequest(
  req: Request,
  getSessionUser: () => Promise<SessionUser | null>,
): Promise<Response> {
  return withRequestLine(req, "/api/account/reports", (seen) => answer(req, getSessionUser, seen));
}

async function answer(
  req: Request,
  getSessionUser: () => Promise<SessionUser | null>,
  seen: RequestLineSeen,
): Promise<Response> {
  const { requestId, headers } = startResponse(req);
  let resHeaders: Headers | null = null;
  try {
    // An unknown method is 404 before the session, the key refusal and the same-Origin rule (as on senders).
    if (req.method !== "GET" && req.method !== "POST") throw notFound(headers, "GET, POST");
    const ctx = await createAccountContext(req, getSessionUser, requestId, seen);
    resHeaders = ctx.resHeaders;
    const caller = createCaller(ctx);
    let data: unknown;
    if (req.method === "GET") {
      // The query read as /v1 reads one (README "Requests the API reads"): a parameter sent twice, a limit not
      // written in decimal digits and an unknown parameter are refused, never read as something else or dropped.
      // (The input step cannot name the unknown one here: this router's "list" shares its path with others'.)
      const query = readQueryOrThrow(req, LIST_QUERY);
      refuseUnknownParameters(query, LIST_FIELDS);
      data = await caller.list(query as never);
    } else {
      data = await caller.create((await readProcedureInput(req, MAX_BODY_BYTES)) as never);
    }
    copyProcedureHeaders(resHeaders, headers, "success");
    return json(200, data, headers);
  } catch (err) {
    // Headers a procedure set for its error (Retry-After) still apply; quota headers belong to a success only.
    copyProcedureHeaders(resHeaders, headers, "error");
    return errorResponse(err, headers, requestId, "account reports", seen);
  }
}

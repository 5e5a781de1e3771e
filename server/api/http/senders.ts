// {account_url}/api/account/senders over plain HTTP, through the shared adapter (respond.ts): the dashboard's
// session, workspace selection and same-Origin rule (createAccountContext), then the sendersRouter procedures,
// answered as `{error:{code,message}}` on failure.
//   GET    /api/account/senders              owners and members
//   POST   /api/account/senders              owners: { "domain" } or { "address" }, optional "dkim_selectors"
//   DELETE /api/account/senders/{id}         owners
//   POST   /api/account/senders/{id}/verify  owners
import type { SessionUser } from "../../auth/principal";
import type { QueryKeys } from "../rest/query-params";
import { sendersRouter } from "../routers/senders";
import { createCallerFactory } from "../trpc";
import { createAccountContext } from "./dashboard-context";
import { withRequestLine, type RequestLineSeen } from "./request-line";
import {
  copyProcedureHeaders,
  errorResponse,
  json,
  notFound,
  readJsonBodyOrThrow,
  readProcedureInput,
  readQueryOrThrow,
  refuseUnknownParameters,
  startResponse,
} from "./respond";

// The largest add request (a domain and a few DKIM selectors) is far below this.
const MAX_BODY_BYTES = 300_000;
const BASE = "/api/account/senders";
const createCaller = createCallerFactory(sendersRouter);

type Caller = ReturnType<typeof createCaller>;
type Ctx = Awaited<ReturnType<typeof createAccountContext>>;

/**
 * A route that takes no parameter refuses one it is sent, as /v1 does (README "Requests the API reads"): a query
 * parameter where it reads the query (GET, DELETE), a field of its JSON body (POST). The procedures cannot: these
 * routers' paths ("list", "remove", "verify") are shared with other routers', so their declared fields are unknown.
 */
async function refuseParameters(req: Request, ctx?: Ctx): Promise<void> {
  // An owners' route answers anyone else 403 whatever they sent, before their parameters are judged, as the
  // procedures of /v1 judge access before input: `ctx` is given for those routes and the procedure says the 403.
  if (ctx) {
    const p = await ctx.authenticate();
    if (!(p.kind === "member" && p.role === "owner")) return;
  }
  const sent =
    req.method === "GET" || req.method === "DELETE"
      ? readQueryOrThrow(req, NO_QUERY_KEYS)
      : await readJsonBodyOrThrow(req, MAX_BODY_BYTES);
  refuseUnknownParameters(sent, TAKES_NOTHING);
}

const NO_QUERY_KEYS: QueryKeys = { arrayKeys: new Set(), numberKeys: new Set() };
const TAKES_NOTHING: ReadonlySet<string> = new Set();

function route(
  method: string,
  rest: string[],
): { allow: string; run?: (c: Caller, req: Request, ctx: Ctx) => Promise<unknown> } {
  if (rest.length === 0) {
    const allow = "GET, POST";
    if (method === "GET") return { allow, run: async (c, req) => (await refuseParameters(req), c.list()) };
    if (method === "POST")
      return { allow, run: async (c, req) => c.add((await readProcedureInput(req, MAX_BODY_BYTES)) as never) };
    return { allow };
  }
  let id: string;
  try {
    id = decodeURIComponent(rest[0]);
  } catch {
    return { allow: "" };
  }
  if (rest.length === 1)
    return {
      allow: "DELETE",
      run:
        method === "DELETE" ? async (c, req, ctx) => (await refuseParameters(req, ctx), c.remove({ id })) : undefined,
    };
  if (rest.length === 2 && rest[1] === "verify")
    return {
      allow: "POST",
      run: method === "POST" ? async (c, req, ctx) => (await refuseParameters(req, ctx), c.verify({ id })) : undefined,
    };
  return { allow: "" };
}

export function handleSendersRequest(
  req: Request,
  getSessionUser: () => Promise<SessionUser | null>,
): Promise<Response> {
  // "unmatched" until the path names one of the routes above, then its template (an id is never written).
  return withRequestLine(req, "unmatched", (seen) => answer(req, getSessionUser, seen));
}

async function answer(
  req: Request,
  getSessionUser: () => Promise<SessionUser | null>,
  seen: RequestLineSeen,
): Promise<Response> {
  const { requestId, headers } = startResponse(req);
  let resHeaders: Headers | null = null;
  try {
    const path = new URL(req.url).pathname.replace(/\/+$/, "");
    const rest = path.startsWith(BASE) ? path.slice(BASE.length).split("/").filter(Boolean) : null;
    const r = rest ? route(req.method, rest) : { allow: "" };
    if (!r.run) throw notFound(headers, r.allow);
    seen.route = [BASE, ...(rest ?? []).map((part, i) => (i === 0 ? "{id}" : part))].join("/");
    const ctx = await createAccountContext(req, getSessionUser, requestId, seen);
    resHeaders = ctx.resHeaders;
    const data = await r.run(createCaller(ctx), req, ctx);
    copyProcedureHeaders(resHeaders, headers, "success");
    return json(200, data, headers);
  } catch (err) {
    copyProcedureHeaders(resHeaders, headers, "error");
    return errorResponse(err, headers, requestId, "account senders", seen);
  }
}

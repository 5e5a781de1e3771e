// {account_url}/api/account/senders over plain HTTP, with the plumbing of the saved-reports route: the dashboard
// door's session, workspace selection and same-Origin rule (createDashboardContext), then the sendersRouter
// procedures, answered as `{error:{code,message}}` on failure.
//   GET    /api/account/senders              owners and members
//   POST   /api/account/senders              owners: { "domain" } or { "address" }, optional "dkim_selectors"
//   DELETE /api/account/senders/{id}         owners
//   POST   /api/account/senders/{id}/verify  owners
import type { SessionUser } from "../api/context";
import { sendersRouter } from "../api/routers/senders";
import { createCallerFactory } from "../api/trpc";
import { createDashboardContext } from "../auth/dashboard-context";
import { getDb } from "../db/client";
import { AppError, toErrorBody } from "../errors";
import { newId } from "../ids";
import { readJsonInput } from "../reports/http";

const BASE = "/api/account/senders";
const createCaller = createCallerFactory(sendersRouter);

function json(status: number, body: unknown, headers: Headers): Response {
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status, headers });
}

/** The session, not a key, authenticates account routes: a request carrying only a key is told so (401). */
async function sessionOrThrow(req: Request, getSessionUser: () => Promise<SessionUser | null>): Promise<SessionUser | null> {
  const user = await getSessionUser();
  if (!user && (req.headers.has("authorization") || req.headers.has("x-api-key"))) {
    throw new AppError("UNAUTHORIZED", "API keys cannot administer senders; sign in to the dashboard instead.");
  }
  return user;
}

type Caller = ReturnType<typeof createCaller>;

function route(method: string, rest: string[]): { allow: string; run?: (c: Caller, req: Request) => Promise<unknown> } {
  if (rest.length === 0) {
    const allow = "GET, POST";
    if (method === "GET") return { allow, run: (c) => c.list() };
    if (method === "POST") return { allow, run: async (c, req) => c.add((await readJsonInput(req)) as never) };
    return { allow };
  }
  const id = decodeURIComponent(rest[0]);
  if (rest.length === 1) return { allow: "DELETE", run: method === "DELETE" ? (c) => c.remove({ id }) : undefined };
  if (rest.length === 2 && rest[1] === "verify") return { allow: "POST", run: method === "POST" ? (c) => c.verify({ id }) : undefined };
  return { allow: "" };
}

export async function handleSendersRequest(req: Request, getSessionUser: () => Promise<SessionUser | null>): Promise<Response> {
  const requestId = newId("req");
  const headers = new Headers({ "X-Request-Id": requestId, "Cache-Control": "private, no-store" });
  try {
    const path = new URL(req.url).pathname.replace(/\/+$/, "");
    const rest = path.startsWith(BASE) ? path.slice(BASE.length).split("/").filter(Boolean) : null;
    const r = rest ? route(req.method, rest) : { allow: "" };
    if (!r.run) {
      if (r.allow) headers.set("Allow", r.allow);
      throw new AppError("LOOKUP_NOT_FOUND", "No such route or method.");
    }
    const ctx = createDashboardContext({ db: await getDb(), req, sessionUser: await sessionOrThrow(req, getSessionUser), requestId });
    return json(200, await r.run(createCaller(ctx), req), headers);
  } catch (err) {
    const { status, body, headers: extra } = toErrorBody(err);
    if (status >= 500 && status !== 503) console.error(`[${requestId}] account senders:`, err);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    return json(status, body, headers);
  }
}

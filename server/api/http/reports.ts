// {account_url}/api/account/reports over plain HTTP: the dashboard door's session, workspace selection and
// same-Origin rule (createDashboardContext), then the reportsRouter procedures, answered as `{error:{code,message}}`
// on failure. The session lookup is passed in, so the route supplies next-auth's and tests a fixed user.
import type { SessionUser } from "../api/context";
import { reportsRouter } from "../api/routers/reports";
import { createCallerFactory, INVALID_INPUT_MARKER } from "../api/trpc";
import { createDashboardContext } from "../auth/dashboard-context";
import { getDb } from "../db/client";
import { AppError, toErrorBody } from "../errors";
import { readCapped } from "../http/read-capped";
import { newId } from "../ids";

// Above the 256 KB report limit, with room for the title and JSON framing.
const MAX_BODY_BYTES = 300_000;
const createCaller = createCallerFactory(reportsRouter);

function json(status: number, body: unknown, headers: Headers): Response {
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * The POST body as procedure input. A malformed body is not refused here: the capability check comes before
 * validation (and before any unit), so the problem travels as INVALID_INPUT_MARKER and the ladder refuses it there.
 */
export async function readJsonInput(req: Request): Promise<unknown> {
  const invalid = (message: string) => ({ [INVALID_INPUT_MARKER]: message });
  if (Number(req.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) return invalid(`The request body is larger than ${MAX_BODY_BYTES} bytes.`);
  const bytes = await readCapped(req.body, MAX_BODY_BYTES);
  if (bytes === null) return invalid(`The request body is larger than ${MAX_BODY_BYTES} bytes.`);
  if (!/^application\/(.+\+)?json\b/i.test(req.headers.get("content-type") ?? "")) {
    return invalid("Send the request body as JSON with Content-Type: application/json.");
  }
  try {
    const body: unknown = JSON.parse(bytes.toString("utf8"));
    return body && typeof body === "object" && !Array.isArray(body) ? body : invalid("The request body must be a JSON object.");
  } catch {
    return invalid("The request body is not valid JSON.");
  }
}

export async function handleReportsRequest(req: Request, getSessionUser: () => Promise<SessionUser | null>): Promise<Response> {
  const requestId = newId("req");
  const headers = new Headers({ "X-Request-Id": requestId, "Cache-Control": "private, no-store" });
  let resHeaders: Headers | null = null;
  try {
    const ctx = createDashboardContext({ db: await getDb(), req, sessionUser: await getSessionUser(), requestId });
    resHeaders = ctx.resHeaders;
    const caller = createCaller(ctx);
    let data: unknown;
    if (req.method === "GET") {
      const url = new URL(req.url);
      data = await caller.list({ limit: url.searchParams.get("limit") ?? undefined, cursor: url.searchParams.get("cursor") ?? undefined } as never);
    } else if (req.method === "POST") {
      data = await caller.create((await readJsonInput(req)) as never);
    } else {
      headers.set("Allow", "GET, POST");
      throw new AppError("LOOKUP_NOT_FOUND", "No such route or method.");
    }
    resHeaders.forEach((v, k) => headers.set(k, v));
    return json(200, data, headers);
  } catch (err) {
    // Headers a procedure set for its error (Retry-After) still apply; quota headers belong to a success only.
    resHeaders?.forEach((v, k) => {
      if (!k.startsWith("x-service-quota")) headers.set(k, v);
    });
    const { status, body, headers: extra } = toErrorBody(err);
    if (status >= 500) console.error(`[${requestId}] account reports:`, err);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    return json(status, body, headers);
  }
}

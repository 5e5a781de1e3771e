// The dashboard's tRPC endpoint over HTTP (/api/trpc): tRPC's fetch adapter with the dashboard context and the
// shared response headers (respond.ts). The session lookup is passed in, so the route handler supplies next-auth's
// and tests supply a fixed user.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { SessionUser } from "../../auth/principal";
import { getDb } from "../../db/client";
import { AppError, toErrorBody } from "../../errors";
import { logger } from "../../operate/log";
import { durationMs, writeRequestLine } from "../../operate/observe";
import type { Context } from "../context";
import { registerBulkProcedures } from "../bulk-procedures";
import { appRouter } from "../root";
import { asTRPCError } from "../trpc";
import { dashboardBodyLimit, MAX_BODY_BYTES } from "../rest/body-rules";
import { createDashboardContext } from "./dashboard-context";
import { copyProcedureHeaders, readBodyBytes, startResponse, tooLargeMessage } from "./respond";

// Bulk jobs check lines against, and run items through, this bundle's procedures (server/bulk/procedures.ts).
registerBulkProcedures();

export const DASHBOARD_ENDPOINT = "/api/trpc";

/**
 * A route that declares a larger body (a list's 10,000-item import, a lockfile scan's raw-body field) gets it when the
 * request calls only such routes (body-rules.ts dashboardBodyLimit); a batch of mutations is far below the default.
 */
function bodyLimitOf(req: Request): number {
  try {
    const names = decodeURIComponent(new URL(req.url).pathname.slice(DASHBOARD_ENDPOINT.length + 1)).split(",");
    return Math.min(...names.map(dashboardBodyLimit));
  } catch {
    return MAX_BODY_BYTES;
  }
}

// A batch names each procedure it calls; a client can make the path as long as it likes.
const MAX_LOGGED_ROUTE = 300;

/**
 * The request's line in the log, as a /v1 request's (server/operate/observe.ts writeRequestLine): the route is the
 * endpoint and the procedures called (`/api/trpc/keys.list,account.overview`), never the query, which holds their
 * input; the workspace once the session's membership was resolved; the first error's code. Page loads are not
 * logged: a dashboard page is a shell whose data comes through this endpoint (one line each), and its HTML, RSC
 * payloads and prefetches would double the lines without saying more about what the user did.
 */
function logDashboardRequest(
  req: Request,
  a: { requestId: string; started: number; status: number; workspaceId?: string; errorCode?: string },
): void {
  let route = DASHBOARD_ENDPOINT;
  try {
    route = new URL(req.url).pathname;
  } catch {
    // A URL the handler could not read either: the endpoint alone.
  }
  writeRequestLine({
    request_id: a.requestId,
    method: req.method,
    route: route.length > MAX_LOGGED_ROUTE ? `${route.slice(0, MAX_LOGGED_ROUTE)}…` : route,
    status: a.status,
    duration_ms: durationMs((performance.now() - a.started) / 1000),
    workspace_id: a.workspaceId,
    error_code: a.errorCode,
  });
}

export async function handleDashboardRequest(
  incoming: Request,
  getSessionUser: () => Promise<SessionUser | null>,
): Promise<Response> {
  const started = performance.now();
  const seen: { workspaceId?: string } = {};
  let errorCode: string | undefined;
  const { requestId, headers: standard } = startResponse(incoming);
  let status = 500;
  try {
    const res = await answer(incoming, getSessionUser, requestId, standard, seen, (code) => (errorCode ??= code));
    status = res.status;
    return res;
  } finally {
    logDashboardRequest(incoming, { requestId, started, status, workspaceId: seen.workspaceId, errorCode });
  }
}

async function answer(
  incoming: Request,
  getSessionUser: () => Promise<SessionUser | null>,
  requestId: string,
  standard: Headers,
  seen: { workspaceId?: string },
  noteError: (code: string) => void,
): Promise<Response> {
  // tRPC's fetch adapter reads the whole body: read it here first, with the cap, and hand tRPC the bytes.
  let req = incoming;
  let tooLarge = false;
  const maxBytes = bodyLimitOf(incoming);
  if (incoming.body) {
    const bytes = await readBodyBytes(incoming, maxBytes);
    tooLarge = bytes === null;
    req = new Request(incoming.url, {
      method: incoming.method,
      headers: incoming.headers,
      body: bytes ? new Uint8Array(bytes) : undefined,
    });
  }
  return fetchRequestHandler({
    endpoint: DASHBOARD_ENDPOINT,
    req,
    router: appRouter,
    createContext: async () => {
      const [db, sessionUser] = await Promise.all([getDb(), getSessionUser()]);
      try {
        if (tooLarge) throw new AppError("INVALID_REQUEST", tooLargeMessage(maxBytes));
        return createDashboardContext({ db, req, sessionUser, requestId, seen });
      } catch (err) {
        // A refused origin (AppError) is answered with its own status, as inside procedures.
        throw asTRPCError(err);
      }
    },
    responseMeta: ({ ctx, paths, errors }) => {
      // Quota headers, Retry-After and friends set by the procedures, as on the REST API (a batch in which every
      // call failed is an error: nothing was consumed).
      const headers = new Headers();
      const failed = errors.length > 0 && errors.length >= (paths?.length ?? 1);
      copyProcedureHeaders((ctx as Context | undefined)?.resHeaders, headers, failed ? "error" : "success");
      standard.forEach((v, k) => headers.set(k, v));
      return { headers };
    },
    onError: ({ error, path }) => {
      noteError(toErrorBody(error).body.error.code);
      if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof AppError)) {
        logger().error(
          { request_id: requestId, where: `dashboard ${path ?? "?"}`, err: error.cause ?? error },
          "unexpected error",
        );
      }
    },
  });
}

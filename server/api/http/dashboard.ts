// The dashboard's tRPC endpoint over HTTP (/api/trpc): tRPC's fetch adapter with the dashboard context and the
// shared response headers (respond.ts). The session lookup is passed in, so the route handler supplies next-auth's
// and tests supply a fixed user.
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getErrorShape } from "@trpc/server/unstable-core-do-not-import";
import type { SessionUser } from "../../auth/principal";
import { getDb } from "../../db/client";
import { AppError, toErrorBody, TRPC_SHAPE_REFUSALS } from "../../errors";
import type { Context } from "../context";
import { registerBulkProcedures } from "../bulk-procedures";
import { appRouter } from "../root";
import { MAX_BATCH_CALLS } from "../batch-limit";
import { asTRPCError } from "../trpc";
import { dashboardBodyLimit, MAX_BODY_BYTES } from "../rest/body-rules";
import { createDashboardContext } from "./dashboard-context";
import { pathOf, withRequestLine, type RequestLineSeen } from "./request-line";
import {
  copyProcedureHeaders,
  errorParts,
  json,
  JSON_TYPE,
  readBodyBytes,
  startResponse,
  tooLargeMessage,
} from "./respond";

// Bulk jobs check lines against, and run items through, this bundle's procedures (server/bulk/procedures.ts).
registerBulkProcedures();

export const DASHBOARD_ENDPOINT = "/api/trpc";
const TAKEN_METHODS = new Set(["GET", "POST", "HEAD"]);

/**
 * A route that declares a larger body (a list's 10,000-item import, a lockfile scan's raw-body field) gets it when the
 * request calls only such routes (body-rules.ts dashboardBodyLimit); a batch of mutations is far below the default.
 */
function bodyLimitOf(req: Request): number {
  const names = calledNames(req);
  return names ? Math.min(...names.map(dashboardBodyLimit)) : MAX_BODY_BYTES;
}

/** The procedure names a request's path calls (`/api/trpc/keys.list,account.overview`), or null when unreadable. */
function calledNames(req: Request): string[] | null {
  try {
    return decodeURIComponent(new URL(req.url).pathname.slice(DASHBOARD_ENDPOINT.length + 1)).split(",");
  } catch {
    return null;
  }
}

export function handleDashboardRequest(
  incoming: Request,
  getSessionUser: () => Promise<SessionUser | null>,
): Promise<Response> {
  // The route is the endpoint and the procedures called (`/api/trpc/keys.list,account.overview`).
  return withRequestLine(
    incoming,
    loggedRoute(incoming),
    (seen) => answer(incoming, getSessionUser, seen),
    "/api/trpc",
  );
}

/**
 * The route a dashboard request's log line names: the endpoint and its procedures when every name in the path is one
 * (a batch), else "unmatched", as /v1 names a path no route takes: the path is the caller's text, and anyone can put
 * anything there (an email address, a token), which the log must not carry.
 */
function loggedRoute(req: Request): string {
  if (!pathOf(req, DASHBOARD_ENDPOINT).startsWith(`${DASHBOARD_ENDPOINT}/`)) return "unmatched";
  const names = calledNames(req);
  return names?.every(isProcedure) ? `${DASHBOARD_ENDPOINT}/${names.join(",")}` : "unmatched";
}

/** Whether the router has a procedure of this name. */
const isProcedure = (name: string) => Object.hasOwn(appRouter._def.procedures, name);

/** A refusal made before tRPC sees the request, in tRPC's error shape (as tRPC answers its own), and logged. */
function refused(error: TRPCError, path: string | undefined, headers: Headers, seen: RequestLineSeen): Response {
  const { status, body } = toErrorBody(error);
  seen.errorCode ??= body.error.code;
  const shape = getErrorShape({
    config: appRouter._def._config,
    error,
    type: "unknown",
    path,
    input: undefined,
    ctx: undefined,
  });
  return json(status, { error: shape }, headers);
}

async function answer(
  incoming: Request,
  getSessionUser: () => Promise<SessionUser | null>,
  seen: RequestLineSeen,
): Promise<Response> {
  const { requestId, headers: standard } = startResponse(incoming);
  // tRPC takes GET (queries) and POST (mutations) and reads any other method's body as a mutation's, refusing it as
  // not JSON: a method the endpoint does not take is the 404 LOOKUP_NOT_FOUND a wrong method gets, in tRPC's shape.
  if (!TAKEN_METHODS.has(incoming.method))
    return refused(new TRPCError({ code: "METHOD_NOT_SUPPORTED" }), undefined, standard, seen);
  // tRPC reads a POST's body before it looks the procedure up, so a lone call of one that does not exist was refused
  // as "must be JSON" (400) when its body was empty, where a GET of it is tRPC's 404: the same 404 either way.
  const names = calledNames(incoming);
  const batch = new URL(incoming.url).searchParams.get("batch");
  if (batch === null && names?.length === 1 && !isProcedure(names[0]!)) {
    const error = new TRPCError({ code: "NOT_FOUND", message: `No procedure found on path "${names[0]}"` });
    return refused(error, names[0], standard, seen);
  }
  // A batch longer than the dashboard's client sends is refused before any call runs, in words (tRPC's maxBatchSize
  // below refuses it too, as "Batch call exceeds maximum size", should a path escape calledNames).
  if (batch === "1" && names && names.length > MAX_BATCH_CALLS) {
    const message = `A batch may make at most ${MAX_BATCH_CALLS} calls; this one makes ${names.length}. Split it.`;
    return refused(new TRPCError({ code: "BAD_REQUEST", message }), undefined, standard, seen);
  }
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
    maxBatchSize: MAX_BATCH_CALLS,
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
      // tRPC's own refusals of a lone call's method or body answer with the status of their error body
      // (server/errors.ts toErrorBody: 404 and 400), not tRPC's 405 and 415.
      const refusal = failed && errors.length === 1 && TRPC_SHAPE_REFUSALS.has(errors[0]!.code) ? errors[0] : null;
      if (!refusal) return { headers };
      // tRPC answers a body it cannot read before any content handler, labelled text/plain: the body is JSON. Its
      // other refusals carry its own JSON type, which this would join rather than replace.
      if (refusal.code === "UNSUPPORTED_MEDIA_TYPE") headers.set("Content-Type", JSON_TYPE);
      return { headers, status: toErrorBody(refusal).status };
    },
    onError: ({ error, path }) => {
      // Logged as on /v1 (./respond.ts errorParts): a bug with its stack, an outage once per interval, a 503 in one
      // line, an input check that threw (its answer says it in general words) at warn.
      const cause = error.code === "INTERNAL_SERVER_ERROR" && error.cause ? error.cause : error;
      seen.errorCode ??= errorParts(cause, requestId, `dashboard ${path ?? "?"}`).body.error.code;
    },
  });
}

// The dashboard's tRPC endpoint over HTTP (/api/trpc): tRPC's fetch adapter with the dashboard context and the
// shared response headers (respond.ts). The session lookup is passed in, so the route handler supplies next-auth's
// and tests supply a fixed user.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { SessionUser } from "../../auth/principal";
import { getDb } from "../../db/client";
import { AppError, toErrorBody } from "../../errors";
import { logger } from "../../operate/log";
import type { Context } from "../context";
import { registerBulkProcedures } from "../bulk-procedures";
import { appRouter } from "../root";
import { asTRPCError } from "../trpc";
import { dashboardBodyLimit, MAX_BODY_BYTES } from "../rest/body-rules";
import { createDashboardContext } from "./dashboard-context";
import { pathOf, withRequestLine, type RequestLineSeen } from "./request-line";
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

export function handleDashboardRequest(
  incoming: Request,
  getSessionUser: () => Promise<SessionUser | null>,
): Promise<Response> {
  // The route is the endpoint and the procedures called (`/api/trpc/keys.list,account.overview`).
  return withRequestLine(incoming, pathOf(incoming, DASHBOARD_ENDPOINT), (seen) =>
    answer(incoming, getSessionUser, seen),
  );
}

async function answer(
  incoming: Request,
  getSessionUser: () => Promise<SessionUser | null>,
  seen: RequestLineSeen,
): Promise<Response> {
  const { requestId, headers: standard } = startResponse(incoming);
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
      seen.errorCode ??= toErrorBody(error).body.error.code;
      if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof AppError)) {
        logger().error(
          { request_id: requestId, where: `dashboard ${path ?? "?"}`, err: error.cause ?? error },
          "unexpected error",
        );
      }
    },
  });
}

// The dashboard's tRPC endpoint over HTTP (/api/trpc): tRPC's fetch adapter with the dashboard context and the
// shared response headers (respond.ts). The session lookup is passed in, so the route handler supplies next-auth's
// and tests supply a fixed user.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { SessionUser } from "../../auth/principal";
import { getDb } from "../../db/client";
import { AppError } from "../../errors";
import { logger } from "../../operate/log";
import type { Context } from "../context";
import { registerBulkProcedures } from "../bulk-procedures";
import { appRouter } from "../root";
import { asTRPCError, type Meta } from "../trpc";
import { createDashboardContext } from "./dashboard-context";
import { copyProcedureHeaders, readBodyBytes, startResponse, tooLargeMessage } from "./respond";

// Bulk jobs check lines against, and run items through, this bundle's procedures (server/bulk/procedures.ts).
registerBulkProcedures();

export const DASHBOARD_ENDPOINT = "/api/trpc";
// A batch of dashboard mutations is far below this; a longer body is refused before any procedure runs.
const MAX_BODY_BYTES = 1_000_000;

/**
 * The JSON body that carries a raw-body field (a lockfile) of at most `fieldBytes`: the field's own limit, the one
 * the REST API applies to the raw body, is checked by the procedure on the text; this is only the room its JSON form
 * needs. JSON escapes quotes, backslashes and line breaks into two bytes each (other control characters, which no
 * lockfile holds, into six), and the envelope and the other fields fit in the default allowance.
 */
export const jsonBodyLimitFor = (fieldBytes: number) => 2 * fieldBytes + MAX_BODY_BYTES;

/** The body a procedure reads on this door: a declared larger body, the room for its raw-body field, or the default. */
function procedureBodyLimit(meta: Meta | undefined): number {
  if (meta?.maxBodyBytes) return meta.maxBodyBytes;
  if (meta?.rawBody) return jsonBodyLimitFor(meta.rawBody.maxBytes);
  return MAX_BODY_BYTES;
}

/**
 * A route that declares a larger body (a list's 10,000-item import, a lockfile scan's raw-body field) gets it when the
 * request calls only such routes.
 */
function bodyLimitOf(req: Request): number {
  try {
    const names = decodeURIComponent(new URL(req.url).pathname.slice(DASHBOARD_ENDPOINT.length + 1)).split(",");
    const procedures = appRouter._def.procedures as Record<string, { _def?: { meta?: Meta } }>;
    return Math.min(...names.map((n) => procedureBodyLimit(procedures[n]?._def?.meta)));
  } catch {
    return MAX_BODY_BYTES;
  }
}

export async function handleDashboardRequest(
  incoming: Request,
  getSessionUser: () => Promise<SessionUser | null>,
): Promise<Response> {
  const { requestId, headers: standard } = startResponse();
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
        return createDashboardContext({ db, req, sessionUser, requestId });
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
      if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof AppError)) {
        logger().error(
          { request_id: requestId, where: `dashboard ${path ?? "?"}`, err: error.cause ?? error },
          "unexpected error",
        );
      }
    },
  });
}

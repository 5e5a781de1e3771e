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
import { asTRPCError } from "../trpc";
import { createDashboardContext } from "./dashboard-context";
import { copyProcedureHeaders, readBodyBytes, startResponse, tooLargeMessage } from "./respond";

// Bulk jobs check lines against, and run items through, this bundle's procedures (server/bulk/procedures.ts).
registerBulkProcedures();

export const DASHBOARD_ENDPOINT = "/api/trpc";
// A batch of dashboard mutations is far below this; a longer body is refused before any procedure runs.
const MAX_BODY_BYTES = 1_000_000;

export async function handleDashboardRequest(
  incoming: Request,
  getSessionUser: () => Promise<SessionUser | null>,
): Promise<Response> {
  const { requestId, headers: standard } = startResponse();
  // tRPC's fetch adapter reads the whole body: read it here first, with the cap, and hand tRPC the bytes.
  let req = incoming;
  let tooLarge = false;
  if (incoming.body) {
    const bytes = await readBodyBytes(incoming, MAX_BODY_BYTES);
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
        if (tooLarge) throw new AppError("INVALID_REQUEST", tooLargeMessage(MAX_BODY_BYTES));
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

// The dashboard door over HTTP: tRPC's fetch adapter with the dashboard context. The session lookup is passed in,
// so the route handler supplies next-auth's and tests supply a fixed user.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { Context, SessionUser } from "../api/context";
import { appRouter } from "../api/root";
import { asTRPCError } from "../api/trpc";
import { AppError } from "../errors";
import { getDb } from "../db/client";
import { newId } from "../ids";
import { createDashboardContext } from "./dashboard-context";

export const DASHBOARD_ENDPOINT = "/api/trpc";

export async function handleDashboardRequest(req: Request, getSessionUser: () => Promise<SessionUser | null>): Promise<Response> {
  const requestId = newId("req");
  return fetchRequestHandler({
    endpoint: DASHBOARD_ENDPOINT,
    req,
    router: appRouter,
    createContext: async () => {
      const [db, sessionUser] = await Promise.all([getDb(), getSessionUser()]);
      try {
        return createDashboardContext({ db, req, sessionUser, requestId });
      } catch (err) {
        // A refused origin (AppError) is answered with its own status, as inside procedures.
        throw asTRPCError(err);
      }
    },
    responseMeta: ({ ctx }) => {
      // Quota headers, Retry-After and friends set by the procedures, as on the REST door.
      const headers = new Headers((ctx as Context | undefined)?.resHeaders);
      headers.set("X-Request-Id", requestId);
      headers.set("Cache-Control", "private, no-store");
      return { headers };
    },
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof AppError)) {
        console.error(`[${requestId}] dashboard ${path ?? "?"}:`, error.cause ?? error);
      }
    },
  });
}

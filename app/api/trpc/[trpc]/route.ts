// The dashboard door: the same procedures as /v1, reached with a next-auth session and a selected workspace.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "../../../../server/api/root";
import type { Context } from "../../../../server/api/context";
import { createDashboardContext } from "../../../../server/auth/dashboard-context";
import { getSessionUser } from "../../../../server/auth/session";
import { getDb } from "../../../../server/db/client";
import { newId } from "../../../../server/ids";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function handler(req: Request): Promise<Response> {
  const requestId = newId("req");
  const res = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: async () => createDashboardContext({ db: await getDb(), req, sessionUser: await getSessionUser(), requestId }),
    responseMeta: ({ ctx }) => {
      const headers = new Headers((ctx as Context | undefined)?.resHeaders);
      headers.set("X-Request-Id", requestId);
      headers.set("Cache-Control", "private, no-store");
      return { headers };
    },
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause && "appCode" in error.cause)) {
        console.error(`[${requestId}] dashboard ${path ?? "?"}:`, error.cause ?? error);
      }
    },
  });
  return res;
}

export { handler as GET, handler as POST };

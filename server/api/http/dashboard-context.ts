// The dashboard door's context: the same Context the REST door builds, with the principal taken from the
// next-auth session and the selected workspace instead of an API key.
import type { Context, SessionUser } from "../api/context";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../ids";
import { configuredOrigin } from "./config";
import { requestedWorkspaceId, resolveMemberPrincipalOrThrow } from "./workspace-selection";

/** The origin this app is served from: the configured one, else the one the request was addressed to. */
export function expectedOrigin(req: Request): string {
  const configured = configuredOrigin();
  if (configured) return configured;
  const url = new URL(req.url);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? url.host;
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.replace(/:$/, "");
  return `${proto}://${host}`;
}

/**
 * The session travels in a cookie, which a browser attaches to cross-site requests too; a mutation is therefore
 * accepted only from a page of this very origin (spec: cookie-authenticated mutations require the same Origin).
 */
export function assertSameOriginMutation(req: Request): void {
  if (req.method === "GET" || req.method === "HEAD") {
    // Metered lookups are queries (GET) that spend units, so a cross-site page must not trigger them either:
    // browsers mark such requests with Sec-Fetch-Site, and a foreign Origin is refused whatever the method.
    const site = req.headers.get("sec-fetch-site");
    const origin = req.headers.get("origin");
    if ((site && site !== "same-origin" && site !== "none") || (origin && origin !== expectedOrigin(req))) {
      throw new AppError("ORIGIN_FORBIDDEN", "Dashboard requests must come from the dashboard's own origin.");
    }
    return;
  }
  const origin = req.headers.get("origin");
  if (!origin || origin !== expectedOrigin(req)) {
    throw new AppError("ORIGIN_FORBIDDEN", "Dashboard changes must come from the dashboard's own origin.");
  }
}

export function createDashboardContext(a: { db: Db; req: Request; sessionUser: SessionUser | null; requestId?: string }): Context {
  assertSameOriginMutation(a.req);
  const requested = requestedWorkspaceId(a.req.headers);
  let principal: ReturnType<Context["authenticate"]> | null = null;
  return {
    db: a.db,
    door: "dashboard",
    requestId: a.requestId ?? newId("req"),
    resHeaders: new Headers(),
    sessionUser: a.sessionUser,
    requestHeaders: a.req.headers,
    authenticate: () => (principal ??= resolveMemberPrincipalOrThrow(a.db, a.sessionUser, requested)),
  };
}

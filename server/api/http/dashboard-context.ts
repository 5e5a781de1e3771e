// The dashboard's context: the same Context the REST API builds, with the principal taken from the next-auth
// session and the selected workspace instead of an API key. Used by the dashboard's tRPC endpoint and the account
// routes (server/api/http/).
import { configuredOrigin } from "../../auth/config";
import { SIGN_IN_FIRST, type SessionUser } from "../../auth/principal";
import { requestedWorkspaceId, resolveMemberPrincipalOrThrow } from "../../auth/workspace-selection";
import { getDb, type Db } from "../../db/client";
import { AppError } from "../../errors";
import { requestOrigin } from "../../http/origin";
import { newId } from "../../ids";
import type { Context } from "../context";

/** The origin this app is served from: the configured one, else the one the request was addressed to (server/http/origin.ts). */
export function expectedOrigin(req: Request): string {
  return configuredOrigin() ?? requestOrigin(req) ?? new URL(req.url).origin;
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

/**
 * A request that presents an API key the way /v1 reads one: `Authorization: Bearer ...` or `X-API-Key`. Another
 * Authorization scheme (HTTP Basic from a proxy in front of the dashboard) is not a key and passes.
 */
export function presentsApiKey(headers: Headers): boolean {
  return headers.has("x-api-key") || /^bearer(?:\s|$)/i.test(headers.get("authorization") ?? "");
}

export const API_KEY_REFUSED = "API keys work on /v1 only; sign in to the dashboard for account routes.";

export function createDashboardContext(a: {
  db: Db;
  req: Request;
  sessionUser: SessionUser | null;
  requestId?: string;
  /**
   * Every procedure behind this route needs a session (the account and billing routes): a request without one is
   * 401 "Sign in first." before the same-Origin rule, which guards cookie-authenticated mutations, could say 403. The
   * dashboard's tRPC endpoint leaves it unset: some of its procedures take no session (a public scan, a link).
   */
  sessionRequired?: boolean;
  /** Noted once the caller's workspace is resolved, for the request's log line (request-line.ts). */
  seen?: { workspaceId?: string };
}): Context {
  // Account, billing and dashboard routes take a session, not an API key (spec, Authentication 7): a key without a
  // session is 401 on every route and method, before the same-Origin rule (which is about cookies) could say 403.
  if (!a.sessionUser && presentsApiKey(a.req.headers)) throw new AppError("UNAUTHORIZED", API_KEY_REFUSED);
  if (!a.sessionUser && a.sessionRequired) throw new AppError("UNAUTHORIZED", SIGN_IN_FIRST);
  assertSameOriginMutation(a.req);
  const requested = requestedWorkspaceId(a.req.headers);
  let principal: ReturnType<Context["authenticate"]> | null = null;
  return {
    db: a.db,
    via: "dashboard",
    requestId: a.requestId ?? newId("req"),
    resHeaders: new Headers(),
    sessionUser: a.sessionUser,
    requestHeaders: a.req.headers,
    authenticate: () =>
      (principal ??= resolveMemberPrincipalOrThrow(a.db, a.sessionUser, requested).then((p) => {
        if (a.seen) a.seen.workspaceId = p.workspaceId;
        return p;
      })),
  };
}

/**
 * The context of an account or billing route (`/api/account/...`, `/api/billing/...`): every procedure behind them
 * needs a session, so a request without one is 401 "Sign in first." (`sessionRequired`). The one place those routes
 * build their context.
 */
export async function createAccountContext(
  req: Request,
  getSessionUser: () => Promise<SessionUser | null>,
  requestId: string,
  seen?: { workspaceId?: string },
): Promise<Context> {
  return createDashboardContext({
    db: await getDb(),
    req,
    sessionUser: await getSessionUser(),
    requestId,
    sessionRequired: true,
    seen,
  });
}

// Who is creating a link. Spec (Authentication 6): the key is optional, but a supplied key must authenticate; an
// invalid, revoked or paused key is refused and never falls back to anonymous creation.
import type { Context } from "../api/context";
import type { LinkScope } from "./links";

/**
 * On the REST door any Authorization or X-API-Key header, whatever its value (empty, not a bearer token), means
 * "authenticate"; only a request with neither is anonymous. On the dashboard the signed-in member's workspace is
 * the scope.
 */
export async function resolveLinkScope(ctx: Context): Promise<LinkScope> {
  const h = ctx.requestHeaders;
  if (ctx.door === "rest" && !h.has("authorization") && !h.has("x-api-key")) return { kind: "anonymous" };
  const p = await ctx.authenticate();
  return { kind: "workspace", workspaceId: p.workspaceId };
}

/** First hop of X-Forwarded-For (see rate-limit.ts for what that is worth), or null. */
export function clientIp(headers: Headers): string | null {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || null;
}

/** The origin the request was addressed to, as the proxy in front reports it; null when the headers do not say. */
export function requestOrigin(headers: Headers): string | null {
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  if (!host || !/^[a-z0-9.:[\]-]+$/i.test(host)) return null;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return `${proto === "https" ? "https" : "http"}://${host}`;
}

// Who is creating a link. Spec (Authentication 6): the key is optional, but a supplied key must authenticate; an
// invalid, revoked or paused key is refused and never falls back to anonymous creation.
import type { Principal } from "../auth/principal";
import type { LinkScope } from "./links";

/** What resolving the scope needs of the request context (server/api/context.ts), without the API layer. */
export interface LinkCaller {
  /** Which entry the request came through: the REST API (/v1) or the dashboard's tRPC endpoint (/api/trpc). */
  via: "api" | "dashboard";
  requestHeaders: Headers;
  authenticate(): Promise<Principal>;
}

/**
 * On the REST API any Authorization or X-API-Key header, whatever its value (empty, not a bearer token), means
 * "authenticate"; only a request with neither is anonymous. On the dashboard the signed-in member's workspace is
 * the scope.
 */
export async function resolveLinkScope(ctx: LinkCaller): Promise<LinkScope> {
  const h = ctx.requestHeaders;
  if (ctx.via === "api" && !h.has("authorization") && !h.has("x-api-key")) return { kind: "anonymous" };
  const p = await ctx.authenticate();
  return { kind: "workspace", workspaceId: p.workspaceId };
}

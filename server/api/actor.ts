// Who is making an account change, for the audit trail: the signed-in user or the API key of the request.
import type { Actor } from "../audit/audit";
import { clientAddress } from "../http/origin";
import type { Context, Principal } from "./context";

export function actorOf(ctx: Pick<Context, "requestHeaders"> & { principal: Principal }): Actor {
  const ip = clientAddress(ctx.requestHeaders);
  const userAgent = ctx.requestHeaders.get("user-agent")?.slice(0, 300) ?? null;
  const p = ctx.principal;
  return p.kind === "member"
    ? { kind: "user", userId: p.userId, email: p.email, ip, userAgent }
    : { kind: "api_key", apiKeyId: p.apiKeyId, ip, userAgent };
}

// Which workspace a dashboard request acts on (spec, Authentication 7): the X-Service-Workspace header, else the
// svc_workspace cookie, else the user's first workspace; always only among workspaces the user belongs to.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { lookupsBlockedReason } from "../workspaces/members";
import { workspaceEntitlements } from "../workspaces/workspaces";
import { SIGN_IN_FIRST, type Principal, type SessionUser } from "./principal";

export const WORKSPACE_HEADER = "x-service-workspace";
export const WORKSPACE_COOKIE = "svc_workspace";

export function readCookie(headers: Headers, name: string): string | null {
  const raw = headers.get("cookie");
  if (!raw) return null;
  for (const part of raw.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim()) || null;
    } catch {
      return null;
    }
  }
  return null;
}

export function requestedWorkspaceId(headers: Headers): string | null {
  const header = headers.get(WORKSPACE_HEADER)?.trim();
  if (header) return header;
  return readCookie(headers, WORKSPACE_COOKIE);
}

/**
 * Resolves the member principal. A workspace the user does not belong to is answered exactly like one that does
 * not exist (404 NOT_FOUND), so the dashboard never reveals other tenants' workspace ids.
 */
export async function resolveMemberPrincipalOrThrow(
  db: Db,
  user: SessionUser | null,
  requested: string | null,
): Promise<Principal> {
  if (!user) throw new AppError("UNAUTHORIZED", SIGN_IN_FIRST);
  const membership = requested
    ? await db.member.findFirst({ where: { userId: user.userId, workspaceId: requested } })
    : await db.member.findFirst({ where: { userId: user.userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  if (!membership) {
    throw new AppError(
      "NOT_FOUND",
      requested ? "No such workspace." : "You are not a member of any workspace yet; create one first.",
    );
  }
  const entitlements = await workspaceEntitlements(db, membership.workspaceId);
  const role = membership.role === "owner" ? "owner" : "member";
  return {
    kind: "member",
    userId: user.userId,
    email: user.email,
    workspaceId: membership.workspaceId,
    role,
    entitlements,
    // Owners are never excluded; a member beyond the plan's included members is refused lookups (trpc.ts).
    lookupsBlocked:
      role === "owner"
        ? null
        : await lookupsBlockedReason(db, {
            workspaceId: membership.workspaceId,
            memberId: membership.id,
            limit: entitlements.members,
          }),
  };
}

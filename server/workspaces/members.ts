// Members are invited by email and linked to a user when that person signs in. Only owners manage keys,
// plans, senders and members; included members run lookups with the workspace's capabilities and quota.
// Each plan includes a number of members, owners counted (DESIGN.md); `inclusionOf` decides who is included.
import { recordAudit, type Actor } from "../audit/audit";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../ids";
import { workspaceEntitlements } from "./workspaces";

export type Role = "owner" | "member";

export interface MemberSummary {
  id: string;
  email: string;
  role: Role;
  joined: boolean;
  /** The member's user id once they have signed in (null before): what a case's `resolved_by` names ("user:<id>"). */
  userId: string | null;
  createdAt: Date;
  /** False when the plan's included members are filled by others: listed, but no dashboard lookups. */
  included: boolean;
  /** Why the member is not included, in words a person can act on; null when included. */
  notIncludedReason: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The address form a member's email must have (an invitation's, an operator's `--owner`). */
export const isEmailAddress = (email: string): boolean => EMAIL.test(email);
// Calls that are not made on anyone's behalf (seeding, tests) are still attributed in the audit trail.
const INTERNAL: Actor = { kind: "system", reason: "internal call" };

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
type MemberRow = { id: string; email: string; role: string; userId: string | null; createdAt: Date };

/**
 * The members a plan includes: every owner (owners are never excluded, so a workspace stays manageable), then
 * the earliest joined members, then pending invitations, up to the plan's figure (owners count). Rows are
 * expected oldest first; there is no join time, so the invitation time orders people who have joined.
 */
export function inclusionOf(rows: readonly MemberRow[], limit: number): Set<string> {
  const owners = rows.filter((m) => m.role === "owner");
  const others = [
    ...rows.filter((m) => m.role !== "owner" && m.userId),
    ...rows.filter((m) => m.role !== "owner" && !m.userId),
  ];
  const room = Math.max(0, limit - owners.length);
  return new Set([...owners, ...others.slice(0, room)].map((m) => m.id));
}

function notIncludedReason(limit: number): string {
  return `The workspace's plan includes ${limit} member${limit === 1 ? "" : "s"} (owners count) and earlier members fill ${limit === 1 ? "it" : "them"}; an owner can remove a member or ask for a plan with more.`;
}

function summary(m: MemberRow, included: boolean, limit: number): MemberSummary {
  return {
    id: m.id,
    email: m.email,
    role: m.role as Role,
    joined: m.userId !== null,
    userId: m.userId,
    createdAt: m.createdAt,
    included,
    notIncludedReason: included ? null : notIncludedReason(limit),
  };
}

export async function listMembers(db: Db, workspaceId: string): Promise<MemberSummary[]> {
  const rows = await db.member.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const { members: limit } = await workspaceEntitlements(db, workspaceId);
  const included = inclusionOf(rows, limit);
  return rows.map((m) => summary(m, included.has(m.id), limit));
}

/**
 * Why this member may not run dashboard lookups, or null when they may. Owners are always included; members
 * beyond the plan's figure stay listed but are refused lookups until capacity returns (a removal or an upgrade).
 */
export async function lookupsBlockedReason(
  db: Db,
  a: { workspaceId: string; memberId: string; limit: number },
): Promise<string | null> {
  const rows = await db.member.findMany({
    where: { workspaceId: a.workspaceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  if (inclusionOf(rows, a.limit).has(a.memberId)) return null;
  return `${notIncludedReason(a.limit)} Until then you can read this workspace but not run dashboard lookups.`;
}

/** Locks the workspace row: concurrent invitations and role changes must not both pass the same count. */
async function lockWorkspace(tx: Tx, workspaceId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT 1 FROM "Workspace" WHERE "id" = $1 FOR UPDATE`, workspaceId);
}

export async function inviteMember(
  db: Db,
  a: { workspaceId: string; email: string; role?: Role; actor?: Actor },
): Promise<MemberSummary> {
  const email = a.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new AppError("INVALID_REQUEST", "A valid email address is required.");
  const { members: limit } = await workspaceEntitlements(db, a.workspaceId);
  const m = await db.$transaction(async (tx) => {
    await lockWorkspace(tx, a.workspaceId);
    const existing = await tx.member.findUnique({
      where: { workspaceId_email: { workspaceId: a.workspaceId, email } },
    });
    if (existing) {
      throw new AppError(
        "CONFLICT",
        existing.userId
          ? `${email} is already a member of this workspace.`
          : `${email} has already been invited; the invitation is waiting for them to sign in with that email.`,
      );
    }
    const count = await tx.member.count({ where: { workspaceId: a.workspaceId } });
    if (count >= limit) {
      throw new AppError(
        "MEMBER_LIMIT_REACHED",
        `This workspace's plan includes ${limit} member${limit === 1 ? "" : "s"} (owners count, invitations too); remove one or ask for a plan with more to invite another.`,
      );
    }
    const user = await tx.user.findUnique({ where: { email } });
    const created = await tx.member.create({
      data: { id: newId("mem"), workspaceId: a.workspaceId, email, role: a.role ?? "member", userId: user?.id ?? null },
    });
    await recordAudit(tx, {
      workspaceId: a.workspaceId,
      type: "audit.member.invited",
      actor: a.actor ?? INTERNAL,
      target: { kind: "member", id: created.id, label: email },
      after: { email, role: created.role },
    });
    return created;
  });
  return summary(m, true, limit);
}

/** Removes a member; the last owner cannot be removed, so a workspace is never left unmanaged. */
export async function removeMemberOrThrow(
  db: Db,
  a: { workspaceId: string; memberId: string; actor?: Actor },
): Promise<void> {
  await db.$transaction(async (tx) => {
    // Two owners removing each other at once must not both pass the last-owner check.
    await lockWorkspace(tx, a.workspaceId);
    const m = await tx.member.findUnique({ where: { id: a.memberId } });
    if (!m || m.workspaceId !== a.workspaceId) throw new AppError("NOT_FOUND", "No such member.");
    if (m.role === "owner") {
      const owners = await tx.member.count({ where: { workspaceId: a.workspaceId, role: "owner" } });
      if (owners <= 1) throw new AppError("CONFLICT", "The last owner of a workspace cannot be removed.");
    }
    await tx.member.delete({ where: { id: m.id } });
    await recordAudit(tx, {
      workspaceId: a.workspaceId,
      type: "audit.member.removed",
      actor: a.actor ?? INTERNAL,
      target: { kind: "member", id: m.id, label: m.email },
      before: { email: m.email, role: m.role },
    });
  });
}

/** Makes a member an owner or an owner a member; the last owner cannot be demoted. Same role: nothing changes. */
export async function changeMemberRoleOrThrow(
  db: Db,
  a: { workspaceId: string; memberId: string; role: Role; actor?: Actor },
): Promise<MemberSummary> {
  await db.$transaction(async (tx) => {
    await lockWorkspace(tx, a.workspaceId);
    const m = await tx.member.findUnique({ where: { id: a.memberId } });
    if (!m || m.workspaceId !== a.workspaceId) throw new AppError("NOT_FOUND", "No such member.");
    if (m.role === a.role) return;
    if (m.role === "owner") {
      const owners = await tx.member.count({ where: { workspaceId: a.workspaceId, role: "owner" } });
      if (owners <= 1)
        throw new AppError("CONFLICT", "The last owner cannot become a member; make someone else an owner first.");
    }
    await tx.member.update({ where: { id: m.id }, data: { role: a.role } });
    await recordAudit(tx, {
      workspaceId: a.workspaceId,
      type: "audit.member.role_changed",
      actor: a.actor ?? INTERNAL,
      target: { kind: "member", id: m.id, label: m.email },
      before: { role: m.role },
      after: { role: a.role },
    });
  });
  const updated = (await listMembers(db, a.workspaceId)).find((x) => x.id === a.memberId);
  if (!updated) throw new AppError("NOT_FOUND", "No such member.");
  return updated;
}

/** Upserts the user for a signed-in email and links any pending invitations to it. */
export async function ensureUser(db: Db, a: { email: string; name?: string | null }) {
  const email = a.email.trim().toLowerCase();
  const user = await db.user.upsert({
    where: { email },
    create: { id: newId("usr"), email, name: a.name ?? null },
    update: a.name ? { name: a.name } : {},
  });
  await db.member.updateMany({ where: { email, userId: null }, data: { userId: user.id } });
  return user;
}

export async function membershipsOf(db: Db, userId: string) {
  return db.member.findMany({
    where: { userId },
    include: { workspace: { select: { id: true, name: true } } },
    orderBy: { createdAt: "asc" },
  });
}

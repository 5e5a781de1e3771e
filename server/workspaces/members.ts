// Members are invited by email and linked to a user when that person signs in. Only owners manage keys,
// plans and members; members run lookups with the workspace's capabilities and quota.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../ids";

export type Role = "owner" | "member";

export interface MemberSummary {
  id: string;
  email: string;
  role: Role;
  joined: boolean;
  createdAt: Date;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function listMembers(db: Db, workspaceId: string): Promise<MemberSummary[]> {
  const rows = await db.member.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } });
  return rows.map((m) => ({ id: m.id, email: m.email, role: m.role as Role, joined: m.userId !== null, createdAt: m.createdAt }));
}

export async function inviteMember(db: Db, a: { workspaceId: string; email: string; role?: Role }): Promise<MemberSummary> {
  const email = a.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new AppError("INVALID_REQUEST", "A valid email address is required.");
  const existing = await db.member.findUnique({ where: { workspaceId_email: { workspaceId: a.workspaceId, email } } });
  if (existing) throw new AppError("CONFLICT", `${email} is already a member of this workspace.`);
  const user = await db.user.findUnique({ where: { email } });
  const m = await db.member.create({
    data: { id: newId("mem"), workspaceId: a.workspaceId, email, role: a.role ?? "member", userId: user?.id ?? null },
  });
  return { id: m.id, email: m.email, role: m.role as Role, joined: m.userId !== null, createdAt: m.createdAt };
}

/** Removes a member; the last owner cannot be removed, so a workspace is never left unmanaged. */
export async function removeMemberOrThrow(db: Db, a: { workspaceId: string; memberId: string }): Promise<void> {
  await db.$transaction(async (tx) => {
    // Lock the workspace row: two owners removing each other at once must not both pass the last-owner check.
    await tx.$queryRawUnsafe(`SELECT 1 FROM "Workspace" WHERE "id" = $1 FOR UPDATE`, a.workspaceId);
    const m = await tx.member.findUnique({ where: { id: a.memberId } });
    if (!m || m.workspaceId !== a.workspaceId) throw new AppError("NOT_FOUND", "No such member.");
    if (m.role === "owner") {
      const owners = await tx.member.count({ where: { workspaceId: a.workspaceId, role: "owner" } });
      if (owners <= 1) throw new AppError("CONFLICT", "The last owner of a workspace cannot be removed.");
    }
    await tx.member.delete({ where: { id: m.id } });
  });
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

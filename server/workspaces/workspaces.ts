// Workspaces, their subscriptions and members. Plan changes re-apply the key limit (pause/resume).
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../ids";
import { applyKeyLimit, createApiKey } from "../keys/keys";
import { entitlementsFor, isPlanSlug, PLAN_SLUGS, type Entitlements, type PlanSlug } from "../plans/catalog";

export function parsePlansOrThrow(plans: readonly string[]): PlanSlug[] {
  if (plans.length === 0) throw new AppError("INVALID_REQUEST", `At least one plan is required (one of ${PLAN_SLUGS.join(", ")}).`);
  const bad = plans.filter((p) => !isPlanSlug(p));
  if (bad.length) throw new AppError("INVALID_REQUEST", `Unknown plan ${bad.join(", ")}; expected one of ${PLAN_SLUGS.join(", ")}.`);
  return [...new Set(plans as PlanSlug[])];
}

export async function createWorkspace(
  db: Db,
  a: { name: string; plans: readonly string[]; ownerEmail?: string | null; ownerUserId?: string | null },
): Promise<{ workspaceId: string; apiKey: string; apiKeyId: string }> {
  const plans = parsePlansOrThrow(a.plans);
  const name = a.name.trim();
  if (!name) throw new AppError("INVALID_REQUEST", "A workspace name is required.");
  const workspaceId = newId("ws");
  await db.workspace.create({
    data: {
      id: workspaceId,
      name,
      subscriptions: { create: plans.map((plan) => ({ id: newId("sub"), plan, status: "active" })) },
      members: a.ownerEmail
        ? { create: [{ id: newId("mem"), email: a.ownerEmail.toLowerCase(), userId: a.ownerUserId ?? null, role: "owner" }] }
        : undefined,
    },
  });
  const { key, plaintext } = await createApiKey(db, { workspaceId, name: "Default key" });
  return { workspaceId, apiKey: plaintext, apiKeyId: key.id };
}

export async function getWorkspaceOrThrow(db: Db, workspaceId: string) {
  const ws = await db.workspace.findUnique({ where: { id: workspaceId } });
  if (!ws) throw new AppError("NOT_FOUND", "No such workspace.");
  return ws;
}

export async function workspaceEntitlements(db: Db, workspaceId: string): Promise<Entitlements> {
  const subs = await db.subscription.findMany({ where: { workspaceId, status: "active" }, select: { plan: true } });
  return entitlementsFor(subs.map((s) => s.plan));
}

/** Replaces the active subscriptions, then pauses keys beyond the new limit or resumes those within it. */
export async function setPlans(db: Db, a: { workspaceId: string; plans: readonly string[] }) {
  const plans = parsePlansOrThrow(a.plans);
  await getWorkspaceOrThrow(db, a.workspaceId);
  const now = new Date();
  await db.$transaction([
    db.subscription.updateMany({ where: { workspaceId: a.workspaceId, status: "active" }, data: { status: "canceled", canceledAt: now } }),
    db.subscription.createMany({ data: plans.map((plan) => ({ id: newId("sub"), workspaceId: a.workspaceId, plan, status: "active" })) }),
  ]);
  const keys = await applyKeyLimit(db, a.workspaceId);
  return { plans, entitlements: entitlementsFor(plans), keys };
}

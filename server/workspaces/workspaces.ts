// Workspaces, their subscriptions and members. Plan changes apply at once (server/billing/plan-change.ts).
import type { Actor } from "../audit/audit";
import { entitledPlans } from "../billing/entitled";
import { applyPlanChange, effectivePlans } from "../billing/plan-change";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../ids";
import { insertApiKey } from "../keys/keys";
import { entitlementsFor, isPlanSlug, PLAN_SLUGS, type Entitlements, type PlanSlug } from "../plans/catalog";

export function parsePlansOrThrow(plans: readonly string[]): PlanSlug[] {
  if (plans.length === 0)
    throw new AppError("INVALID_REQUEST", `At least one plan is required (one of ${PLAN_SLUGS.join(", ")}).`);
  const bad = plans.filter((p) => !isPlanSlug(p));
  if (bad.length)
    throw new AppError("INVALID_REQUEST", `Unknown plan ${bad.join(", ")}; expected one of ${PLAN_SLUGS.join(", ")}.`);
  return [...new Set(plans as PlanSlug[])];
}

export async function createWorkspace(
  db: Db,
  a: {
    name: string;
    plans: readonly string[];
    ownerEmail?: string | null;
    ownerUserId?: string | null;
    /** Who created it (audits the first key). */ actor?: Actor;
    /**
     * Called with the new workspace and its key before the transaction commits: if it throws, nothing is created
     * (the first run's demo seed writes the key's file here, server/startup/demo.ts).
     */
    beforeCommit?: (created: { workspaceId: string; apiKey: string; apiKeyId: string }) => void | Promise<void>;
  },
): Promise<{ workspaceId: string; apiKey: string; apiKeyId: string }> {
  const plans = parsePlansOrThrow(a.plans);
  const name = a.name.trim();
  if (!name) throw new AppError("INVALID_REQUEST", "A workspace name is required.");
  const workspaceId = newId("ws");
  // One transaction: written one after the other, a failure between them (the database gone during the first run's
  // seed, which start-up then tries again) left a workspace without a key, and the next attempt, seeing a workspace,
  // seeded nothing and showed no credentials.
  return db.$transaction(async (tx) => {
    await tx.workspace.create({
      data: {
        id: workspaceId,
        name,
        subscriptions: { create: plans.map((plan) => ({ id: newId("sub"), plan, status: "active" })) },
        members: a.ownerEmail
          ? {
              create: [
                { id: newId("mem"), email: a.ownerEmail.toLowerCase(), userId: a.ownerUserId ?? null, role: "owner" },
              ],
            }
          : undefined,
      },
    });
    const { key, plaintext } = await insertApiKey(tx, {
      workspaceId,
      name: "Default key",
      kind: "secret",
      allowedOrigins: [],
      actor: a.actor,
    });
    const created = { workspaceId, apiKey: plaintext, apiKeyId: key.id };
    await a.beforeCommit?.(created);
    return created;
  });
}

export async function getWorkspaceOrThrow(db: Db, workspaceId: string) {
  const ws = await db.workspace.findUnique({ where: { id: workspaceId } });
  if (!ws) throw new AppError("NOT_FOUND", "No such workspace.");
  return ws;
}

/** The workspace's plans now: operator grants and Stripe subscriptions, past_due ones within the grace period. */
export async function workspaceEntitlements(db: Db, workspaceId: string): Promise<Entitlements> {
  return entitlementsFor(await entitledPlans(db, workspaceId));
}

/**
 * The operator's grant (`npm run admin -- plan set`): replaces the operator-granted subscriptions, leaves Stripe's
 * alone (the two combine by the highest figure), then applies the change: key limit, webhook deliveries, audit.
 */
export async function setPlans(db: Db, a: { workspaceId: string; plans: readonly string[]; actor?: Actor }) {
  const plans = parsePlansOrThrow(a.plans);
  await getWorkspaceOrThrow(db, a.workspaceId);
  const before = await effectivePlans(db, a.workspaceId);
  const now = new Date();
  await db.$transaction([
    db.subscription.updateMany({
      where: { workspaceId: a.workspaceId, source: "operator", status: { not: "canceled" } },
      data: { status: "canceled", canceledAt: now },
    }),
    db.subscription.createMany({
      data: plans.map((plan) => ({
        id: newId("sub"),
        workspaceId: a.workspaceId,
        plan,
        status: "active",
        source: "operator",
      })),
    }),
  ]);
  const change = await applyPlanChange(db, {
    workspaceId: a.workspaceId,
    before,
    actor: a.actor ?? { kind: "operator" },
  });
  return {
    plans,
    effectivePlans: change.plans,
    entitlements: entitlementsFor(change.plans),
    keys: change.keys,
    deliveries: change.deliveries,
  };
}

// What follows any change to a workspace's subscriptions, whoever made it (the operator's `plan set`, a verified
// Stripe event): the spec's rules apply at once. Keys and monitors beyond the new limits pause (oldest stay) or resume; webhook
// deliveries follow the entitlement (the rule lives in webhooks/pause.ts); and the change is written to the audit
// trail with its actor.
import { recordAudit, type Actor } from "../audit/audit";
import type { Db } from "../db/client";
import { applyKeyLimit } from "../keys/keys";
import { applyMonitorLimit } from "../monitors/monitors";
import { entitlementsFor, type PlanSlug } from "../plans/catalog";
import { applyWebhookEntitlement } from "../webhooks/pause";
import { entitledPlans } from "./entitled";

/** The effective plans, sorted, as audit and comparisons see them ("free" when nothing is held). */
export async function effectivePlans(db: Db, workspaceId: string, now: Date = new Date()): Promise<PlanSlug[]> {
  return [...entitlementsFor(await entitledPlans(db, workspaceId, now)).plans].sort();
}

export interface PlanChangeResult {
  plans: PlanSlug[];
  keys: { active: string[]; paused: string[] };
  monitors: { active: string[]; paused: string[] };
  deliveries: { paused: number; resumed: number; expired: number };
}

/** Call after the subscriptions changed; `before` is effectivePlans() read before the change. */
export async function applyPlanChange(
  db: Db,
  a: { workspaceId: string; before: readonly string[]; actor: Actor; requestId?: string | null; now?: Date },
): Promise<PlanChangeResult> {
  const now = a.now ?? new Date();
  const plans = await effectivePlans(db, a.workspaceId, now);
  const keys = await applyKeyLimit(db, a.workspaceId, { actor: a.actor, requestId: a.requestId ?? null });
  const monitors = await applyMonitorLimit(db, {
    workspaceId: a.workspaceId,
    entitlements: entitlementsFor(plans),
    actor: a.actor,
    requestId: a.requestId ?? null,
    now,
  });
  const deliveries = await applyWebhookEntitlement(db, a.workspaceId, entitlementsFor(plans).webhooks, now);
  const before = [...a.before].sort();
  if (before.join(",") !== plans.join(",")) {
    await recordAudit(db, {
      workspaceId: a.workspaceId,
      type: "audit.plan.changed",
      actor: a.actor,
      target: { kind: "workspace", id: a.workspaceId },
      before: { plans: before },
      after: {
        plans,
        paused_keys: keys.paused.length,
        // Only when there are monitors to speak of (each pause is also its own audit.monitor.paused event).
        ...(monitors.paused.length ? { paused_monitors: monitors.paused.length } : {}),
      },
      requestId: a.requestId ?? null,
    });
  }
  return { plans, keys, monitors, deliveries };
}

// The end of a past_due grace period. Reads already stop counting such a subscription the moment its grace ends
// (entitled.ts); this hourly task makes the rest of the plan change happen too (keys beyond the limit pause,
// webhook deliveries pause, audit.plan.changed) and marks the row `unpaid`, so that later reminders from Stripe
// about the same failed payment do not start a new grace period. A payment that succeeds later makes it active.
import type { Db } from "../db/client";
import { entitlementsFor } from "../plans/catalog";
import { graceCutoff } from "./entitled";
import { applyPlanChange, effectivePlans } from "./plan-change";

export const GRACE_TASK = "billing.grace_ended";
export const GRACE_EVERY_MS = 60 * 60 * 1000;

export async function endExpiredGrace(db: Db, now: Date = new Date()): Promise<{ workspaces: number }> {
  const lapsed = await db.subscription.findMany({
    where: { status: "past_due", pastDueSince: { lte: graceCutoff(now) } },
  });
  const byWorkspace = new Map<string, typeof lapsed>();
  for (const s of lapsed) byWorkspace.set(s.workspaceId, [...(byWorkspace.get(s.workspaceId) ?? []), s]);
  for (const [workspaceId, subs] of byWorkspace) {
    // What the workspace held while the grace lasted: today's plans plus the lapsed ones.
    const before = [
      ...entitlementsFor([...(await effectivePlans(db, workspaceId, now)), ...subs.map((s) => s.plan)]).plans,
    ].sort();
    const ids = subs.map((s) => s.id);
    await db.subscription.updateMany({ where: { id: { in: ids }, status: "past_due" }, data: { status: "unpaid" } });
    await applyPlanChange(db, {
      workspaceId,
      before,
      actor: { kind: "system", reason: "the past_due grace period ended" },
      now,
    });
  }
  return { workspaces: byWorkspace.size };
}

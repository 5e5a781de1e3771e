// What the plan page shows about billing: the mode, how to ask for a change, which plans can be bought, and the
// workspace's subscriptions with their state (past_due grace end, cancellation at period end).
import type { Db } from "../db/client";
import { billingContact, billingMode, graceDays, SELLABLE_PLANS } from "./config";
import { entitlingSubscriptions } from "./entitled";

export async function billingStatus(db: Db, workspaceId: string, now: Date = new Date()) {
  const mode = billingMode();
  const grace = graceDays();
  const [subs, ws] = await Promise.all([
    db.subscription.findMany({
      where: entitlingSubscriptions(workspaceId, now),
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
    db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { stripeCustomerId: true } }),
  ]);
  return {
    mode,
    contact: billingContact(),
    graceDays: grace,
    sellablePlans: mode === "stripe" ? SELLABLE_PLANS : [],
    hasBillingAccount: ws.stripeCustomerId !== null,
    // Free is the absence of a plan, not something to show as held.
    subscriptions: subs
      .filter((s) => s.plan !== "free")
      .map((s) => ({
        plan: s.plan,
        source: s.source === "stripe" ? ("stripe" as const) : ("operator" as const),
        status: s.status === "past_due" ? ("past_due" as const) : ("active" as const),
        graceEndsAt:
          s.status === "past_due" && s.pastDueSince
            ? new Date(s.pastDueSince.getTime() + grace * 86_400_000).toISOString()
            : null,
        cancelAtPeriodEnd: s.cancelAtPeriodEnd,
        currentPeriodEnd: s.currentPeriodEnd?.toISOString() ?? null,
      })),
  };
}

// Queues high-risk assessment notifications. Called from the assessment response path without awaiting delivery,
// so it must be cheap (one read, one insert) and must never throw into the caller.
import type { Db } from "../db/client";
import { newId } from "../ids";
import { logWebhookError } from "./log";

export const HIGH_RISK_ASSESSMENT = "high_risk_assessment";

export interface HighRiskAssessmentEvent {
  workspaceId: string;
  /** The assessment's request ID; it correlates the delivery with GET /events. */
  requestId: string;
  /** The assessment result, delivered as the payload's `data`. */
  payload: unknown;
}

/** The JSON body every receiver gets; built once at enqueue time so retries send identical bytes. */
export function highRiskPayload(e: HighRiskAssessmentEvent, createdAt: Date) {
  return {
    type: HIGH_RISK_ASSESSMENT,
    request_id: e.requestId,
    workspace_id: e.workspaceId,
    created_at: createdAt.toISOString(),
    data: e.payload ?? null,
  };
}

/**
 * Inserts one pending delivery per webhook of the workspace subscribed to `high_risk_assessment`.
 * Resolves to the number of deliveries queued; on any failure it logs and resolves to 0 (never rejects).
 */
export async function enqueueHighRiskAssessment(db: Db, e: HighRiskAssessmentEvent): Promise<number> {
  try {
    const hooks = await db.webhook.findMany({
      where: { workspaceId: e.workspaceId, eventTypes: { has: HIGH_RISK_ASSESSMENT } },
      select: { id: true },
    });
    if (hooks.length === 0) return 0;
    const now = new Date();
    const payload = JSON.parse(JSON.stringify(highRiskPayload(e, now)));
    const res = await db.webhookDelivery.createMany({
      data: hooks.map((h) => ({
        id: newId("msg"),
        webhookId: h.id,
        workspaceId: e.workspaceId,
        eventType: HIGH_RISK_ASSESSMENT,
        requestId: e.requestId,
        payload,
        status: "pending",
        nextAttemptAt: now,
        createdAt: now,
      })),
    });
    return res.count;
  } catch (err) {
    logWebhookError("enqueue failed", err);
    return 0;
  }
}

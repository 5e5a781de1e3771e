// Queues high-risk assessment notifications: one read and one insert, in the assessment's own transaction, so the
// event and its deliveries are recorded together. Sending is the webhook worker's job (server/webhooks/worker.ts).
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { newId } from "../ids";
import { logWebhookError } from "./log";

export const HIGH_RISK_ASSESSMENT = "high_risk_assessment";
export const CASE_RESOLVED = "case.resolved";
/** A monitor's check changed for the worse, stays bad (a daily reminder), or a run was skipped (server/monitors). */
export const MONITOR_ALERT = "monitor.alert";
/** A monitor's check that had alerted is good again. */
export const MONITOR_RESOLVED = "monitor.resolved";

/**
 * The condition that a webhook `w` of workspace `workspace` (SQL expressions) takes events of `type`: the one test the
 * assessment's write joins its deliveries by, and the one its velocity read asks beforehand (subscribedSql).
 */
export const subscribesTo = (w: string, workspace: string, type: string) =>
  `${w}."workspaceId" = ${workspace} AND '${type}' = ANY (${w}."eventTypes")`;

/**
 * Whether any webhook of the workspace (a SQL expression) takes events of `type`, as a scalar SQL expression. The
 * assessment reads it with its velocity (server/assessment/assess.ts) and leaves the notification's copy of its
 * answer out of its write when nothing would take it: most workspaces have no such webhook, and that copy was half
 * of the bytes the write sent (docs/benchmarks.md).
 */
export const subscribedSql = (workspace: string, type: string) =>
  `(SELECT EXISTS (SELECT 1 FROM "Webhook" w WHERE ${subscribesTo("w", workspace, type)}))`;

export interface HighRiskAssessmentEvent {
  workspaceId: string;
  /** The assessment's request ID; it correlates the delivery with GET /events. */
  requestId: string;
  /** The assessment result, delivered as the payload's `data`. */
  payload: unknown;
}

/**
 * The JSON body every receiver gets, `{ type, request_id, workspace_id, created_at, data }`; built once at enqueue
 * time so retries send identical bytes (undefined members dropped, as the stored JSON drops them).
 */
export function deliveryBody(
  type: string,
  e: { requestId: string; workspaceId: string; createdAt: Date },
  data: unknown,
): Prisma.InputJsonObject {
  return JSON.parse(JSON.stringify(deliveryEnvelope(type, e, data))) as Prisma.InputJsonObject;
}

/**
 * The same body before its round trip through JSON, for a caller that serialises it itself (the assessment's write
 * sends its rows as one JSON text, which drops undefined members the same way): one copy of the answer fewer.
 */
export function deliveryEnvelope(
  type: string,
  e: { requestId: string; workspaceId: string; createdAt: Date },
  data: unknown,
) {
  return {
    type,
    request_id: e.requestId,
    workspace_id: e.workspaceId,
    created_at: e.createdAt.toISOString(),
    data: data ?? null,
  };
}

/** The body of a high-risk assessment's delivery. */
export function highRiskPayload(e: HighRiskAssessmentEvent, createdAt: Date) {
  return deliveryBody(HIGH_RISK_ASSESSMENT, { ...e, createdAt }, e.payload);
}

/**
 * Inserts one pending delivery per webhook of the workspace subscribed to `high_risk_assessment`, with `db` being the
 * transaction that records the assessment's event (both rows or neither: a crash cannot keep the event and lose its
 * delivery). Resolves to the number of deliveries queued; a failure rejects, rolling the transaction back.
 */
export async function queueHighRiskDeliveries(
  db: Pick<Db, "webhook" | "webhookDelivery">,
  e: HighRiskAssessmentEvent,
): Promise<number> {
  return queueEventDeliveries(db, {
    workspaceId: e.workspaceId,
    type: HIGH_RISK_ASSESSMENT,
    requestId: e.requestId,
    data: e.payload,
  });
}

/**
 * One pending delivery of an event per webhook of the workspace subscribed to its type, in the caller's transaction
 * (the change and its deliveries: both or neither). The body is `{ type, request_id, workspace_id, created_at, data }`.
 */
export async function queueEventDeliveries(
  db: Pick<Db, "webhook" | "webhookDelivery">,
  e: { workspaceId: string; type: string; requestId: string; data: unknown },
): Promise<number> {
  const hooks = await db.webhook.findMany({
    where: { workspaceId: e.workspaceId, eventTypes: { has: e.type } },
    select: { id: true },
  });
  if (hooks.length === 0) return 0;
  const now = new Date();
  const payload = deliveryBody(e.type, { ...e, createdAt: now }, e.data);
  const res = await db.webhookDelivery.createMany({
    data: hooks.map((h) => ({
      id: newId("msg"),
      webhookId: h.id,
      workspaceId: e.workspaceId,
      eventType: e.type,
      requestId: e.requestId,
      payload,
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
    })),
  });
  return res.count;
}

/** The same outside a transaction, for callers that must never fail: logs and resolves to 0 on any failure. */
export async function enqueueHighRiskAssessment(db: Db, e: HighRiskAssessmentEvent): Promise<number> {
  try {
    return await queueHighRiskDeliveries(db, e);
  } catch (err) {
    logWebhookError("enqueue failed", err);
    return 0;
  }
}

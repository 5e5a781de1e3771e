// Deliveries a person asks for from the dashboard or the API: a test event to check a receiver, and a redelivery
// of an earlier delivery. Both queue an ordinary pending delivery, so the worker signs, sends, retries and checks
// the plan exactly as for a real event; the answer is the queued delivery's log line.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../ids";
import { listDeliveryOrThrow, type DeliveryRecord } from "./deliveries";
import { HIGH_RISK_ASSESSMENT, highRiskPayload } from "./enqueue";
import { getWebhookOrThrow } from "./webhooks";

/** A made-up high-risk assessment, shaped like the real one, with `test: true` so receivers can tell it apart. */
function sampleAssessment(requestId: string) {
  return {
    request_id: requestId,
    event: "signup",
    score: 85,
    risk_level: "critical",
    decision: "block",
    decided_by: "score",
    signals: [
      { code: "ip_tor_exit", weight: 45, reason: "Test event: the IP is a Tor exit node.", evidence: ["tor-exits"] },
    ],
    rules: [],
    test: true,
  };
}

async function queue(
  db: Db,
  a: { workspaceId: string; webhookId: string; requestId: string; payload: unknown },
): Promise<DeliveryRecord> {
  const id = newId("msg");
  const now = new Date();
  await db.webhookDelivery.create({
    data: {
      id,
      webhookId: a.webhookId,
      workspaceId: a.workspaceId,
      eventType: HIGH_RISK_ASSESSMENT,
      requestId: a.requestId,
      payload: JSON.parse(JSON.stringify(a.payload)),
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
    },
  });
  return listDeliveryOrThrow(db, { workspaceId: a.workspaceId, webhookId: a.webhookId, deliveryId: id });
}

/** Queues a test `high_risk_assessment` (payload `test: true`) to one webhook; its request id is this request's. */
export async function sendTestEventOrThrow(
  db: Db,
  a: { workspaceId: string; webhookId: string; requestId: string },
): Promise<DeliveryRecord> {
  await getWebhookOrThrow(db, a);
  const payload = {
    ...highRiskPayload(
      { workspaceId: a.workspaceId, requestId: a.requestId, payload: sampleAssessment(a.requestId) },
      new Date(),
    ),
    test: true,
  };
  return queue(db, { ...a, payload });
}

/**
 * Sends an earlier delivery's body again as a new delivery (a new `webhook-id`, so a receiver that dropped the
 * first as a duplicate takes this one). The original stays in the log unchanged.
 */
export async function redeliverOrThrow(
  db: Db,
  a: { workspaceId: string; webhookId: string; deliveryId: string },
): Promise<DeliveryRecord> {
  await getWebhookOrThrow(db, a);
  const original = await db.webhookDelivery.findFirst({
    where: { id: a.deliveryId, webhookId: a.webhookId, workspaceId: a.workspaceId },
  });
  if (!original) throw new AppError("NOT_FOUND", "No such delivery for this webhook.");
  if (original.status === "pending")
    throw new AppError("CONFLICT", "This delivery is still being sent; wait for it to be delivered or to fail.");
  return queue(db, {
    workspaceId: a.workspaceId,
    webhookId: a.webhookId,
    requestId: original.requestId,
    payload: original.payload,
  });
}

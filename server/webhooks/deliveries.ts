// The delivery log of one webhook: what was queued, sent, retried, paused or given up, newest first.
import type { Db } from "../db/client";
import { newestFirstAfter, placeOf } from "../pages";
import { AppError } from "../errors";
import { getWebhookOrThrow } from "./webhooks";

export type DeliveryStatus = "pending" | "delivered" | "failed" | "paused" | "expired";

export interface DeliveryRecord {
  id: string;
  event_type: string;
  request_id: string;
  status: DeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
  /** The JSON body sent to the receiver. */
  payload: unknown;
}

type Row = Awaited<ReturnType<Db["webhookDelivery"]["findMany"]>>[number];

const toDeliveryRecord = (d: Row): DeliveryRecord => ({
  id: d.id,
  event_type: d.eventType,
  request_id: d.requestId,
  status: d.status as DeliveryStatus,
  attempts: d.attempts,
  last_status: d.lastStatus,
  last_error: d.lastError,
  next_attempt_at: d.status === "pending" || d.status === "paused" ? d.nextAttemptAt.toISOString() : null,
  created_at: d.createdAt.toISOString(),
  delivered_at: d.deliveredAt?.toISOString() ?? null,
  payload: d.payload,
});

/** One delivery of one webhook of the workspace (404 otherwise). */
export async function listDeliveryOrThrow(
  db: Db,
  a: { workspaceId: string; webhookId: string; deliveryId: string },
): Promise<DeliveryRecord> {
  const d = await db.webhookDelivery.findFirst({
    where: { id: a.deliveryId, webhookId: a.webhookId, workspaceId: a.workspaceId },
  });
  if (!d) throw new AppError("NOT_FOUND", "No such delivery for this webhook.");
  return toDeliveryRecord(d);
}

export async function listDeliveriesOrThrow(
  db: Db,
  a: { workspaceId: string; webhookId: string; limit: number; cursor?: string | null },
): Promise<{ items: DeliveryRecord[]; nextCursor: string | null }> {
  await getWebhookOrThrow(db, a);
  const after = await placeOf(a.cursor, (id) =>
    db.webhookDelivery.findFirst({
      where: { id, webhookId: a.webhookId, workspaceId: a.workspaceId },
      select: { id: true, createdAt: true },
    }),
  );
  const rows = await db.webhookDelivery.findMany({
    where: { webhookId: a.webhookId, workspaceId: a.workspaceId, ...(after ? newestFirstAfter(after) : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: a.limit + 1,
  });
  const page = rows.slice(0, a.limit);
  return {
    items: page.map(toDeliveryRecord),
    nextCursor: rows.length > a.limit ? page[page.length - 1].id : null,
  };
}

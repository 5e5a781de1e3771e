// Webhook registrations of a workspace. Every query filters on the workspace from the caller's context; another
// workspace's webhook is answered as not found, never as forbidden, so its existence is not revealed.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { recordEvent } from "../events/events";
import { newId } from "../ids";
import { maxWebhooksPerWorkspace } from "./config";
import { newWebhookSecret } from "./signing";
import { assertWebhookUrlOrThrow } from "./target";

export interface WebhookRecord {
  id: string;
  name: string;
  url: string;
  event_types: string[];
  created_at: string;
  updated_at: string;
}

type Row = { id: string; name: string; url: string; eventTypes: string[]; createdAt: Date; updatedAt: Date };

export const toWebhookRecord = (r: Row): WebhookRecord => ({
  id: r.id,
  name: r.name,
  url: r.url,
  event_types: r.eventTypes,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

type Audit = { workspaceId: string; requestId: string };

function audit(db: Db, a: Audit, type: string, w: Row) {
  return recordEvent(db, { ...a, type, data: { webhook_id: w.id, name: w.name, url: w.url, event_types: w.eventTypes } });
}

/** Registers a webhook within the workspace limit; the signing secret is returned here and never again. */
export async function createWebhook(db: Db, a: Audit & { name: string; url: string; eventTypes: string[] }): Promise<WebhookRecord & { secret: string }> {
  const url = await assertWebhookUrlOrThrow(a.url);
  const secret = newWebhookSecret();
  const row = await db.$transaction(async (tx) => {
    // Lock the workspace row so that parallel creations cannot both pass the limit check.
    await tx.$queryRawUnsafe(`SELECT 1 FROM "Workspace" WHERE "id" = $1 FOR UPDATE`, a.workspaceId);
    const limit = maxWebhooksPerWorkspace();
    if ((await tx.webhook.count({ where: { workspaceId: a.workspaceId } })) >= limit) {
      throw new AppError("CONFLICT", `This workspace already has the maximum of ${limit} webhooks; delete one to add another.`);
    }
    return tx.webhook.create({ data: { id: newId("wh"), workspaceId: a.workspaceId, name: a.name, url, eventTypes: uniq(a.eventTypes), secret } });
  });
  await audit(db, a, "webhook.created", row);
  return { ...toWebhookRecord(row), secret };
}

export async function listWebhooks(db: Db, workspaceId: string): Promise<WebhookRecord[]> {
  const rows = await db.webhook.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toWebhookRecord);
}

export async function getWebhookOrThrow(db: Db, a: { workspaceId: string; webhookId: string }) {
  const row = await db.webhook.findFirst({ where: { id: a.webhookId, workspaceId: a.workspaceId } });
  if (!row) throw new AppError("NOT_FOUND", "No such webhook.");
  return row;
}

export async function updateWebhookOrThrow(
  db: Db,
  a: Audit & { webhookId: string; name?: string; url?: string; eventTypes?: string[] },
): Promise<WebhookRecord> {
  await getWebhookOrThrow(db, a);
  const url = a.url === undefined ? undefined : await assertWebhookUrlOrThrow(a.url);
  const data = { name: a.name, url, eventTypes: a.eventTypes ? uniq(a.eventTypes) : undefined };
  const res = await db.webhook.updateMany({ where: { id: a.webhookId, workspaceId: a.workspaceId }, data });
  if (res.count === 0) throw new AppError("NOT_FOUND", "No such webhook.");
  const row = await getWebhookOrThrow(db, a);
  await audit(db, a, "webhook.updated", row);
  return toWebhookRecord(row);
}

/** Deletes the webhook and its queued and logged deliveries, so nothing more is sent to it. */
export async function deleteWebhookOrThrow(db: Db, a: Audit & { webhookId: string }): Promise<{ id: string; deleted: true }> {
  const row = await getWebhookOrThrow(db, a);
  await db.$transaction([
    db.webhookDelivery.deleteMany({ where: { webhookId: row.id, workspaceId: a.workspaceId } }),
    db.webhook.deleteMany({ where: { id: row.id, workspaceId: a.workspaceId } }),
  ]);
  await audit(db, a, "webhook.deleted", row);
  return { id: row.id, deleted: true };
}

const uniq = (xs: string[]) => [...new Set(xs)];

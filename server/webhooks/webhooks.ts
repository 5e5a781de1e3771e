// Webhook registrations of a workspace. Every query filters on the workspace from the caller's context; another
// workspace's webhook is answered as not found, never as forbidden, so its existence is not revealed.
import { recordAudit, type Actor } from "../audit/audit";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { sortableId } from "../ids";
import { sealWebhookSecret } from "../secrets/stored-secrets";
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

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

type Row = { id: string; name: string; url: string; eventTypes: string[]; createdAt: Date; updatedAt: Date };

export const toWebhookRecord = (r: Row): WebhookRecord => ({
  id: r.id,
  name: r.name,
  url: r.url,
  event_types: r.eventTypes,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

type Audit = { workspaceId: string; requestId: string; actor: Actor };

/** What an audit event may show of a webhook: never the signing secret. */
const publicFields = (w: Row) => ({ name: w.name, url: w.url, event_types: w.eventTypes });

function audit(
  tx: Tx,
  a: Audit,
  type: "audit.webhook.created" | "audit.webhook.updated" | "audit.webhook.deleted",
  before: Row | null,
  after: Row | null,
) {
  const w = (after ?? before)!;
  return recordAudit(tx, {
    workspaceId: a.workspaceId,
    requestId: a.requestId,
    type,
    actor: a.actor,
    target: { kind: "webhook", id: w.id, label: w.name },
    before: before && publicFields(before),
    after: after && publicFields(after),
  });
}

/**
 * Registers a webhook within the workspace limit. The signing secret is stored only as an AES-256-GCM envelope
 * (server/secrets) and returned in plain text here, never again.
 */
export async function createWebhook(
  db: Db,
  a: Audit & { name: string; url: string; eventTypes: string[] },
): Promise<WebhookRecord & { secret: string }> {
  const url = await assertWebhookUrlOrThrow(a.url);
  const secret = newWebhookSecret();
  const id = sortableId("wh");
  const sealed = sealWebhookSecret(id, secret);
  const row = await db.$transaction(async (tx) => {
    // Lock the workspace row so that parallel creations cannot both pass the limit check.
    await tx.$queryRawUnsafe(`SELECT 1 FROM "Workspace" WHERE "id" = $1 FOR UPDATE`, a.workspaceId);
    const limit = maxWebhooksPerWorkspace();
    if ((await tx.webhook.count({ where: { workspaceId: a.workspaceId } })) >= limit) {
      throw new AppError(
        "CONFLICT",
        `This workspace already has the maximum of ${limit} webhooks; delete one to add another.`,
      );
    }
    const created = await tx.webhook.create({
      data: { id, workspaceId: a.workspaceId, name: a.name, url, eventTypes: uniq(a.eventTypes), secret: sealed },
    });
    await audit(tx, a, "audit.webhook.created", null, created);
    return created;
  });
  return { ...toWebhookRecord(row), secret };
}

export async function listWebhooks(db: Db, workspaceId: string): Promise<WebhookRecord[]> {
  const rows = await db.webhook.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toWebhookRecord);
}

export async function getWebhookOrThrow(db: Db | Tx, a: { workspaceId: string; webhookId: string }) {
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
  const row = await db.$transaction(async (tx) => {
    const before = await tx.webhook.findFirst({ where: { id: a.webhookId, workspaceId: a.workspaceId } });
    if (!before) throw new AppError("NOT_FOUND", "No such webhook.");
    // Conditional, so a webhook deleted meanwhile is a 404 and never a failed update.
    const res = await tx.webhook.updateMany({ where: { id: before.id, workspaceId: a.workspaceId }, data });
    const after =
      res.count === 1 ? await tx.webhook.findFirst({ where: { id: before.id, workspaceId: a.workspaceId } }) : null;
    if (!after) throw new AppError("NOT_FOUND", "No such webhook.");
    await audit(tx, a, "audit.webhook.updated", before, after);
    return after;
  });
  return toWebhookRecord(row);
}

/** Deletes the webhook and its queued and logged deliveries, so nothing more is sent to it. */
export async function deleteWebhookOrThrow(
  db: Db,
  a: Audit & { webhookId: string },
): Promise<{ id: string; deleted: true }> {
  await db.$transaction(async (tx) => {
    const row = await getWebhookOrThrow(tx, a);
    await tx.webhookDelivery.deleteMany({ where: { webhookId: row.id, workspaceId: a.workspaceId } });
    const res = await tx.webhook.deleteMany({ where: { id: row.id, workspaceId: a.workspaceId } });
    if (res.count === 0) throw new AppError("NOT_FOUND", "No such webhook.");
    await audit(tx, a, "audit.webhook.deleted", row, null);
  });
  return { id: a.webhookId, deleted: true };
}

const uniq = (xs: string[]) => [...new Set(xs)];

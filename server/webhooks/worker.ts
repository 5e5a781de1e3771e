// The delivery worker: claims due deliveries (safe across app instances), checks the workspace's CURRENT webhook
// entitlement before every attempt (spec: deliveries pause after a downgrade removes it), sends, and settles each
// row as delivered, retried with backoff, failed, or paused.
import type { Db } from "../db/client";
import { startQueueWorker, stopQueueWorker } from "../queue/worker";
import { recordEvent } from "../events/events";
import type { EventType } from "../events/types";
import { openWebhookSecret } from "../secrets/stored-secrets";
import { workspaceEntitlements } from "../workspaces/workspaces";
import { claimDueDeliveries } from "./claim";
import { batchSize, deliveryTimeoutMs, pollIntervalMs, workerEnabled } from "./config";
import { logWebhookError } from "./log";
import { metrics } from "../operate/metrics";
import { expiredDelivery, pausedDelivery, pausedTooLong } from "./pause";
import { nextAttemptAfter } from "./schedule";
import { deliveryBody, sendDelivery } from "./send";

type Delivery = Awaited<ReturnType<typeof claimDueDeliveries>>[number];
type Outcome = "delivered" | "retrying" | "failed" | "paused";

export interface RunSummary {
  claimed: number;
  delivered: number;
  retrying: number;
  failed: number;
  paused: number;
}

/** One pass: claims up to a batch of due deliveries at `now` and attempts them concurrently. */
export async function runWebhookDeliveriesOnce(db: Db, now: Date = new Date()): Promise<RunSummary> {
  const rows = await claimDueDeliveries(db, { now, leaseMs: deliveryTimeoutMs() + 60_000, limit: batchSize() });
  const entitled = new Map<string, Promise<boolean>>();
  const isEntitled = (workspaceId: string) => {
    if (!entitled.has(workspaceId))
      entitled.set(
        workspaceId,
        workspaceEntitlements(db, workspaceId).then((e) => e.webhooks),
      );
    return entitled.get(workspaceId)!;
  };
  const summary: RunSummary = { claimed: rows.length, delivered: 0, retrying: 0, failed: 0, paused: 0 };
  const outcomes = await Promise.all(
    rows.map((d) =>
      attempt(db, d, now, isEntitled).catch((err) => {
        logWebhookError(`delivery ${d.id}`, err);
        return "retrying" as const; // the lease expires and another pass picks it up
      }),
    ),
  );
  for (const o of outcomes) {
    summary[o]++;
    metrics().webhookDeliveries.inc({ outcome: o });
  }
  return summary;
}

async function attempt(db: Db, d: Delivery, now: Date, isEntitled: (ws: string) => Promise<boolean>): Promise<Outcome> {
  const settle = (data: Parameters<Db["webhookDelivery"]["updateMany"]>[0]["data"]) =>
    db.webhookDelivery.updateMany({ where: { id: d.id }, data });
  const hook = await db.webhook.findFirst({ where: { id: d.webhookId, workspaceId: d.workspaceId } });
  if (!hook) {
    await settle({ status: "failed", lastError: "the webhook was deleted" });
    return "failed";
  }
  if (!(await isEntitled(d.workspaceId))) {
    await settle(pausedDelivery(now));
    if (d.status !== "paused")
      await audit(db, d, "webhook.delivery_paused", { ...webhookNamed(hook), delivery_id: d.id });
    return "paused";
  }
  if (d.status === "paused" && pausedTooLong(d.createdAt, now)) {
    await settle(expiredDelivery);
    return "failed";
  }
  // The secret is stored sealed (server/secrets); it is opened only here, for signing. A secret sealed under a key
  // this instance does not hold counts as a failed attempt (backoff, then failed) instead of being retried forever;
  // once the operator restores the key (SERVICE_ENCRYPTION_KEY's keyring), the next attempt signs normally.
  let secret: string;
  try {
    secret = openWebhookSecret(hook);
  } catch (err) {
    logWebhookError(`delivery ${d.id}: signing secret`, err);
    return settleFailure(db, d, hook, now, {
      status: null,
      error:
        "the signing secret could not be decrypted: the encryption key that sealed it is not configured on this instance",
    });
  }
  const res = await sendDelivery({ url: hook.url, secret, msgId: d.id, body: deliveryBody(d.payload) });
  if (res.ok) {
    await settle({
      status: "delivered",
      attempts: d.attempts + 1,
      lastStatus: res.status,
      lastError: null,
      deliveredAt: new Date(),
    });
    return "delivered";
  }
  return settleFailure(db, d, hook, now, res);
}

async function settleFailure(
  db: Db,
  d: Delivery,
  hook: Hook,
  now: Date,
  res: { status: number | null; error?: string | null },
): Promise<Outcome> {
  const settle = (data: Parameters<Db["webhookDelivery"]["updateMany"]>[0]["data"]) =>
    db.webhookDelivery.updateMany({ where: { id: d.id }, data });
  const attempts = d.attempts + 1;
  const next = nextAttemptAfter(attempts, now);
  const error = res.error?.slice(0, 500) ?? null;
  if (next) {
    await settle({ status: "pending", attempts, lastStatus: res.status, lastError: error, nextAttemptAt: next });
    return "retrying";
  }
  await settle({ status: "failed", attempts, lastStatus: res.status, lastError: error });
  await audit(db, d, "webhook.delivery_failed", {
    ...webhookNamed(hook),
    delivery_id: d.id,
    attempts,
    last_status: res.status,
    last_error: error,
  });
  return "failed";
}

type Hook = { id: string; name: string; url: string };

/**
 * The webhook an event is about, by its id and as the workspace knows it (its name and address when the event was
 * written): the Events page says it in those words, and they stay readable once the webhook is deleted.
 */
function webhookNamed(hook: Hook) {
  return { webhook_id: hook.id, webhook_name: hook.name, webhook_url: hook.url };
}

function audit(db: Db, d: Delivery, type: EventType, data: Record<string, unknown>) {
  return recordEvent(db, { workspaceId: d.workspaceId, requestId: d.requestId, type, data }).catch((err) =>
    logWebhookError(type, err),
  );
}

const WORKER = "webhook_delivery";

/**
 * Starts polling for due deliveries on the queue's worker loop (idempotent). SERVICE_WEBHOOK_WORKER=0 disables it
 * on this instance. A full batch suggests a backlog: the next pass follows at once.
 */
export function startWebhookWorker(): void {
  if (!workerEnabled()) return;
  startQueueWorker({
    name: WORKER,
    pollMs: pollIntervalMs(),
    pass: async (db) => (await runWebhookDeliveriesOnce(db)).claimed >= batchSize(),
  });
}

/** Stops claiming; resolves once the pass under way (if any) has settled every delivery it claimed. */
export function stopWebhookWorker(): Promise<void> {
  return stopQueueWorker(WORKER);
}

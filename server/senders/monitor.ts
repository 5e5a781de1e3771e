// The daily sender check: every verified sender that holds one of its workspace's slots gets its posture
// refreshed; a change of posture is an investigation event (`sender.posture_changed`, before and after).
// Runs once across instances through the scheduler's lease (server/schedule). Unmetered.
import type { Db } from "../db/client";
import { recordEvent } from "../events/events";
import { newId } from "../ids";
import { workspaceEntitlements } from "../workspaces/workspaces";
import { checkSenderPosture, knownVerdicts, postureChanged, type KnownVerdicts } from "./posture";
import type { SenderPosture } from "./schemas";
import { logger } from "../operate/log";

export const SENDER_CHECK_TASK = "senders.daily-check";
export const SENDER_CHECK_EVERY_MS = 24 * 60 * 60 * 1000;
// Senders checked at once: each check is a few dozen DNS queries, bounded by the resolver timeouts.
const CONCURRENCY = 4;

/** Checks one sender now and stores its posture; records an event when the posture changed. */
export async function refreshPosture(db: Db, senderId: string, now = new Date()): Promise<{ changed: boolean }> {
  const s = await db.sender.findUnique({ where: { id: senderId } });
  if (!s || s.status !== "verified") return { changed: false };
  // The stored posture carries the last known verdicts beside the public fields (the API schema leaves them out).
  const stored = (s.posture as (SenderPosture & { known?: KnownVerdicts }) | null) ?? null;
  const prevKnown = stored?.known ?? null;
  const after = await checkSenderPosture(s.domain, s.dkimSelectors, now);
  const known = knownVerdicts(prevKnown, after);
  const changed = postureChanged(prevKnown, known);
  await db.sender.updateMany({
    where: { id: s.id },
    data: { posture: { ...after, known } as object, lastCheckedAt: now },
  });
  if (changed && stored) {
    const { known: _k, ...before } = stored;
    await recordEvent(db, {
      workspaceId: s.workspaceId,
      requestId: newId("job"),
      type: "sender.posture_changed",
      domain: s.domain,
      data: { sender_id: s.id, sender: s.value, before, after },
    });
  }
  return { changed };
}

/** The senders that hold a slot: per workspace, the oldest ones up to the plan's sender slots. */
export async function monitoredSenderIds(db: Db): Promise<string[]> {
  const verified = await db.sender.findMany({
    where: { status: "verified" },
    select: { workspaceId: true },
    distinct: ["workspaceId"],
  });
  const ids: string[] = [];
  for (const { workspaceId } of verified) {
    const { senders: slots } = await workspaceEntitlements(db, workspaceId);
    if (slots <= 0) continue;
    const holders = await db.sender.findMany({
      where: { workspaceId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: slots,
    });
    ids.push(...holders.filter((h) => h.status === "verified").map((h) => h.id));
  }
  return ids;
}

export async function runSenderChecks(
  db: Db,
  now = new Date(),
): Promise<{ checked: number; changed: number; failed: number }> {
  const queue = await monitoredSenderIds(db);
  const total = queue.length;
  let changed = 0;
  let failed = 0;
  const worker = async () => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      try {
        if ((await refreshPosture(db, id, now)).changed) changed++;
      } catch (err) {
        failed++;
        logger().error({ err, component: "senders", sender_id: id }, "sender check failed");
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { checked: total - failed, changed, failed };
}

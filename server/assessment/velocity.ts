// Velocity: how often the same IP, email or device was assessed in this workspace recently. Repeats in a short
// window are the mark of credential stuffing, sign-up farms and card testing. Only this workspace's events count.
import type { Db } from "../db/client";
import { velocityWindowMinutes } from "./config";
import type { Signal, SourceRef } from "./schemas";

/** Earlier assessments at or above `at` add `weight`; the first tier reached (highest first) applies. */
const TIERS = {
  ip: [{ at: 20, weight: 30 }, { at: 5, weight: 15 }],
  email: [{ at: 10, weight: 35 }, { at: 3, weight: 20 }],
  device: [{ at: 20, weight: 30 }, { at: 5, weight: 15 }],
} as const;

const LABEL = { ip: "IP address", email: "email address", device: "device" } as const;

export async function velocitySignals(
  db: Db,
  a: { workspaceId: string; ip: string; email: string | null; deviceId: string | null },
): Promise<{ signals: Signal[]; source: SourceRef }> {
  const minutes = velocityWindowMinutes();
  const base = { workspaceId: a.workspaceId, type: "assessment", createdAt: { gte: new Date(Date.now() - minutes * 60_000) } };
  const [ip, email, device] = await Promise.all([
    db.event.count({ where: { ...base, ip: a.ip } }),
    a.email ? db.event.count({ where: { ...base, email: a.email } }) : 0,
    a.deviceId ? db.event.count({ where: { ...base, data: { path: ["device_id"], equals: a.deviceId } } }) : 0,
  ]);
  const signals: Signal[] = [];
  for (const [kind, count] of [["ip", ip], ["email", email], ["device", device]] as const) {
    const tier = TIERS[kind].find((t) => count >= t.at);
    if (!tier) continue;
    signals.push({
      code: `velocity_${kind}`,
      weight: tier.weight,
      reason: `This ${LABEL[kind]} was assessed ${count} times in the last ${minutes} minutes: repeated attempts suggest automation, account takeover or card testing. Rate-limit or challenge it.`,
      evidence: ["workspace-events"],
    });
  }
  return { signals, source: { name: "workspace-events", origin: "workspace", fetched_at: new Date().toISOString() } };
}

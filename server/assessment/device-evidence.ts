// The device part of /assess: the `device` object from public/device.js, diagnosed as POST /device/check does
// (automation, consistency, per-device velocity of accounts, emails and IPs), turned into assessment signals.
import type { Db } from "../db/client";
import { diagnoseDevice } from "../device/diagnose";
import type { DeviceSignals } from "../device/schemas";
import type { Signal, SourceRef } from "./schemas";

export type DeviceEvidence = {
  signals: Signal[];
  device: { device_id: string; verdict: "automated" | "suspicious" | "human"; risk_score: number } | null;
  source: SourceRef | null;
  /** The browser's time zone against the address's location (the diagnosis' timezone_vs_ip); null when unchecked. */
  timezoneMismatch: boolean | null;
  /** The browser's languages against the address's country (the diagnosis' language_vs_ip); null when unchecked. */
  languageMismatch: boolean | null;
};

export async function gatherDeviceEvidence(
  db: Db,
  a: {
    workspaceId: string;
    device: DeviceSignals | undefined;
    ip: string;
    email: string | null;
    userId: string | null;
  },
): Promise<DeviceEvidence> {
  if (!a.device) return { signals: [], device: null, source: null, timezoneMismatch: null, languageMismatch: null };
  const d = await diagnoseDevice(db, {
    workspaceId: a.workspaceId,
    device: a.device,
    ip: a.ip,
    email: a.email,
    userId: a.userId,
  });
  const mismatch = (check: string) => {
    const result = d.consistency.find((c) => c.check === check)?.result;
    return result === "inconsistent" ? true : result === "consistent" ? false : null;
  };
  return {
    signals: d.risk.signals.map((s) => ({ ...s, evidence: ["device-signals"] })),
    device: { device_id: d.device_id, verdict: d.automation.verdict, risk_score: d.risk.score },
    source: { name: "device-signals", origin: "workspace", fetched_at: d.checked_at },
    timezoneMismatch: mismatch("timezone_vs_ip"),
    languageMismatch: mismatch("language_vs_ip"),
  };
}

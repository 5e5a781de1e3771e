// Per-device velocity: each check or assessment with a device records what the device was seen with (IP, email,
// account). Many accounts or addresses on one device within the window mark account farms and shared fraud rigs.
import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { canonicalEmail } from "../email/canonical";
import { newId } from "../ids";

/** dev_ + a hash of the visitor id: stable for the same browser, and never echoes the raw fingerprint. */
export function deviceIdOf(visitorId: string): string {
  return `dev_${createHash("sha256").update(`device:${visitorId}`).digest("base64url").slice(0, 22)}`;
}

export type DeviceVelocity = { window_minutes: number; accounts: number; emails: number; ips: number };

export async function observeDevice(
  db: Db,
  a: {
    workspaceId: string;
    deviceId: string;
    ip: string | null;
    email: string | null;
    userId: string | null;
    windowMinutes: number;
  },
): Promise<DeviceVelocity> {
  await db.deviceObservation.create({
    data: {
      id: newId("dob"),
      workspaceId: a.workspaceId,
      deviceId: a.deviceId,
      ip: a.ip,
      email: a.email,
      userId: a.userId,
    },
  });
  const rows = await db.deviceObservation.findMany({
    where: {
      workspaceId: a.workspaceId,
      deviceId: a.deviceId,
      createdAt: { gte: new Date(Date.now() - a.windowMinutes * 60_000) },
    },
    select: { ip: true, email: true, userId: true },
    take: 5000,
  });
  const distinct = (pick: (r: (typeof rows)[number]) => string | null) =>
    new Set(rows.map(pick).filter((x): x is string => !!x)).size;
  // The address as sent is stored; every spelling of one mailbox counts once (server/email/canonical.ts).
  const mailbox = (r: (typeof rows)[number]) => (r.email ? canonicalEmail(r.email).normalized : null);
  return {
    window_minutes: a.windowMinutes,
    accounts: distinct((r) => r.userId ?? mailbox(r)),
    emails: distinct(mailbox),
    ips: distinct((r) => r.ip),
  };
}

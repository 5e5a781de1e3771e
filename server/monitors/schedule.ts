// When monitors run. The schedule is the `nextRunAt` column, so it survives restarts; a run is claimed by moving
// `nextRunAt` forward with an UPDATE conditional on the value read (PostgreSQL re-checks the WHERE on a row another
// transaction just moved, and the row no longer qualifies; PGlite runs one statement at a time): two processes
// never run the same monitor for the same slot. A new monitor's first run is a fraction of its interval away,
// taken from a hash of its id, so a thousand monitors created at once do not fire in the same second.
import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { INTERVAL_MS, type MonitorInterval } from "./limits";

/** The fixed fraction of the interval (0 <= f < 1) by which this monitor's runs are offset. */
export function spreadFraction(id: string): number {
  return createHash("sha256").update(id).digest().readUInt32BE(0) / 2 ** 32;
}

export function firstRunAt(id: string, interval: MonitorInterval, now: Date): Date {
  return new Date(now.getTime() + Math.floor(spreadFraction(id) * INTERVAL_MS[interval]));
}

/** The next slot after `now` in the monitor's phase (a run missed while down is not repeated). */
export function nextSlotAfter(due: Date, interval: MonitorInterval, now: Date): Date {
  const every = INTERVAL_MS[interval];
  const behind = Math.max(0, now.getTime() - due.getTime());
  return new Date(due.getTime() + (Math.floor(behind / every) + 1) * every);
}

/**
 * Claims up to `limit` active monitors due at `now`, oldest due first, and moves each to its next slot. Returns the
 * ids this caller won; a monitor another caller moved first is not among them.
 */
export async function claimDueMonitors(db: Db, now: Date, limit = 50): Promise<string[]> {
  const due = await db.monitor.findMany({
    where: { status: "active", nextRunAt: { lte: now } },
    orderBy: { nextRunAt: "asc" },
    take: limit,
    select: { id: true, nextRunAt: true, interval: true },
  });
  const won: string[] = [];
  for (const m of due) {
    const moved = await db.monitor.updateMany({
      where: { id: m.id, status: "active", nextRunAt: m.nextRunAt },
      data: { nextRunAt: nextSlotAfter(m.nextRunAt, m.interval as MonitorInterval, now) },
    });
    if (moved.count === 1) won.push(m.id);
  }
  return won;
}

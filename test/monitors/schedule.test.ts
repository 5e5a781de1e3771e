// The monitors' schedule: first runs spread over the interval by a hash of the id, due monitors claimed with a
// conditional UPDATE so two claimers on one database never run the same monitor twice, the schedule kept in the
// database (a "restart" is a new scheduler reading it back), and the one-minute task on the lease scheduler.
// Both stores: DATABASE_URL selects PostgreSQL.
import { describe, expect, it } from "vitest";
import { INTERVAL_MS } from "../../server/monitors/limits";
import { claimDueMonitors, firstRunAt, nextSlotAfter, spreadFraction } from "../../server/monitors/schedule";
import { MONITOR_TASK, runDueMonitors } from "../../server/monitors/task";
import { startScheduler } from "../../server/queue/scheduled";
import { scheduledTasks } from "../../server/startup/tasks";
import { createTestApp } from "../harness";
import { A, api, monitorDns } from "./helpers";

const app = await createTestApp();
await monitorDns({ "site.test": A() });
const HOUR = 3_600_000;

async function monitors(n: number, interval = "1h") {
  const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api(app, ws.apiKey)("POST", "/v1/monitors", {
      target: "site.test",
      checks: [{ type: "dns", record_types: ["A"] }],
      interval,
    });
    expect(res.status).toBe(200);
    ids.push(res.body.id);
  }
  return { ws, ids };
}

describe("first runs", () => {
  it("are spread over the interval by a hash of the id, the same for the same id", () => {
    const now = new Date("2026-11-02T00:00:00Z");
    const offsets = Array.from(
      { length: 1000 },
      (_, i) => firstRunAt(`mon_${i}`, "24h", now).getTime() - now.getTime(),
    );
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...offsets)).toBeLessThan(INTERVAL_MS["24h"]);
    // No second of the day holds more than a handful of the thousand first runs.
    const perSecond = new Map<number, number>();
    for (const o of offsets) perSecond.set(Math.floor(o / 1000), (perSecond.get(Math.floor(o / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(3);
    // Each hour of the day gets some of them.
    expect(new Set(offsets.map((o) => Math.floor(o / HOUR))).size).toBe(24);
    expect(spreadFraction("mon_x")).toBe(spreadFraction("mon_x"));
  });

  it("keep their phase: a slot missed while down is not repeated", () => {
    const due = new Date("2026-11-02T00:10:00Z");
    expect(nextSlotAfter(due, "1h", due).toISOString()).toBe("2026-11-02T01:10:00.000Z");
    expect(nextSlotAfter(due, "1h", new Date("2026-11-02T03:30:00Z")).toISOString()).toBe("2026-11-02T04:10:00.000Z");
  });
});

describe("claims", () => {
  it("never give the same monitor to two claimers on one database", async () => {
    const { ids } = await monitors(12);
    const now = new Date(Date.now() + 2 * HOUR);
    const [a, b, c] = await Promise.all([
      claimDueMonitors(app.db, now),
      claimDueMonitors(app.db, now),
      claimDueMonitors(app.db, now),
    ]);
    const all = [...a!, ...b!, ...c!].filter((id) => ids.includes(id));
    expect(all.sort()).toEqual([...ids].sort());
    expect(new Set(all).size).toBe(all.length);
    // Claimed for this slot: nothing is due again until the next one.
    expect((await claimDueMonitors(app.db, now)).filter((id) => ids.includes(id))).toEqual([]);
  });

  it("run each due monitor exactly once when two task runs race", async () => {
    const { ids } = await monitors(6);
    const now = new Date(Date.now() + 2 * HOUR);
    await Promise.all([runDueMonitors(app.db, now), runDueMonitors(app.db, now)]);
    for (const id of ids) expect(await app.db.monitorRun.count({ where: { monitorId: id } })).toBe(1);
  });
});

describe("the schedule", () => {
  it("lives in the database: a new scheduler after a restart runs what is due and nothing else", async () => {
    const { ids } = await monitors(1, "6h");
    const id = ids[0]!;
    const stored = await app.db.monitor.findUniqueOrThrow({ where: { id } });
    const due = stored.nextRunAt;
    const task = scheduledTasks().find((t) => t.name === MONITOR_TASK)!;
    expect(task.everyMs).toBe(60_000);

    await app.db.scheduleLease.deleteMany({ where: { name: MONITOR_TASK } });
    const before = startScheduler(app.db, [task], { firstTickMs: HOUR });
    await before.tick(new Date(due.getTime() - 60_000));
    await before.stop();
    expect(await app.db.monitorRun.count({ where: { monitorId: id } })).toBe(0);

    // "Restart": a new scheduler, nothing in memory; the due time comes from the database.
    const after = startScheduler(app.db, [task], { firstTickMs: HOUR });
    expect((await after.tick(due))[MONITOR_TASK]).toBe("ran");
    expect(await app.db.monitorRun.count({ where: { monitorId: id } })).toBe(1);
    const moved = await app.db.monitor.findUniqueOrThrow({ where: { id } });
    expect(moved.nextRunAt.getTime()).toBe(due.getTime() + 6 * HOUR);
    expect((await after.tick(new Date(due.getTime() + 2 * 60_000)))[MONITOR_TASK]).toBe("ran");
    expect(await app.db.monitorRun.count({ where: { monitorId: id } })).toBe(1);
    await after.stop();
  });
});

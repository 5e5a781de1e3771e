// The monthly units of monitors: one unit per check per run, 30 days / interval runs, plus the other active monitors;
// and the dashboard-only procedure that answers them with a session.
import { describe, expect, it } from "vitest";
import { estimateMonitorUnits } from "../../server/monitors/estimate";
import { monthlyUnits, runsPerMonth } from "../../server/monitors/limits";
import { call, ownerAndMember } from "../dashboard/call";
import { createTestApp } from "../harness";
import { A, monitorDns } from "./helpers";

describe("monitor estimate", () => {
  it.each([
    ["1h", 720],
    ["6h", 120],
    ["12h", 60],
    ["24h", 30],
    ["7d", 4],
  ] as const)("a month holds %s runs at %s", (interval, runs) => {
    expect(runsPerMonth(interval)).toBe(runs);
  });

  it("the dashboard's sum from units_per_run (limits.ts, no charging rules in the browser) is the server's", () => {
    expect(monthlyUnits(7, "7d")).toBe(28);
    // What the server answers as a monitor's units_per_run, summed the dashboard's way, is the server's monthly figure.
    for (const [checks, interval] of [
      [1, "1h"],
      [3, "24h"],
      [5, "7d"],
    ] as const) {
      const server = estimateMonitorUnits({ monitor: { checks, interval }, otherActive: [], monthlyAllowance: 1 });
      expect(monthlyUnits(server.units_per_run, interval)).toBe(server.units_per_month);
    }
  });

  it("3 checks daily is 90 units, added to the other monitors' 2 × 120", () => {
    expect(
      estimateMonitorUnits({
        monitor: { checks: 3, interval: "24h" },
        otherActive: [{ checks: 2, interval: "6h" }],
        monthlyAllowance: 25_000,
      }),
    ).toEqual({
      checks: 3,
      units_per_run: 3,
      runs_per_month: 30,
      units_per_month: 90,
      workspace_units_per_month: 330,
      monthly_allowance: 25_000,
    });
  });
});

describe("monitors.estimate through the dashboard door", () => {
  it("adds the other active monitors and leaves out the one being edited", async () => {
    const app = await createTestApp();
    await monitorDns({ "site.test": A() });
    const { member } = await ownerAndMember(app.db, "estimate", ["suite_business"]);
    const created = await call(member, "monitors.create", { target: "site.test", checks: ["dns"] }, "mutation");
    expect(created.status).toBe(200);
    const fresh = await call(member, "monitors.estimate", { checks: 2, interval: "24h" }, "query");
    expect(fresh.data).toMatchObject({ units_per_month: 60, workspace_units_per_month: 90 });
    const editing = await call(
      member,
      "monitors.estimate",
      { id: created.data.id, checks: 2, interval: "24h" },
      "query",
    );
    expect(editing.data).toMatchObject({ units_per_month: 60, workspace_units_per_month: 60 });
  }, 60_000);
});

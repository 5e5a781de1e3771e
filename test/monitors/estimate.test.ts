// The monthly units of monitors: one unit per check per run, 30 days / interval runs, plus the other active monitors.
import { describe, expect, it } from "vitest";
import { estimateMonitorUnits, runsPerMonth } from "../../server/monitors/estimate";

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

  it("3 checks daily is 90 units, added to the other monitors' 2 × 120", () => {
    expect(
      estimateMonitorUnits({
        monitor: { checks: 3, interval: "24h" },
        otherActive: [{ checks: 2, interval: "6h" }],
        monthlyAllowance: 25_000,
      }),
    ).toEqual({
      checks: 3,
      runs_per_month: 30,
      units_per_month: 90,
      workspace_units_per_month: 330,
      monthly_allowance: 25_000,
    });
  });
});

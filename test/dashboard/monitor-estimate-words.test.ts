// The monitor form's estimate says what a run costs in the monitor's own terms: checks, or a project monitor's package
// versions (its run costs one unit per package version). Editing a project monitor said "720 units a month (1 check ×
// 720 runs a month)" for one whose hourly runs cost 3 units each.
import { describe, expect, it } from "vitest";
import { estimateWords } from "../../app/dashboard/monitors/Estimate";

const estimate = { checks: 1, runs_per_month: 720, workspace_units_per_month: 2_160, monthly_allowance: 250_000 };

describe("a monitor's estimate in words", () => {
  it("counts a project monitor's package versions", () => {
    expect(estimateWords({ ...estimate, units_per_run: 3, units_per_month: 2_160 }, true)).toBe(
      "This monitor will use about 2,160 units a month (3 package versions × 720 runs a month); your monitors would then use 2,160 of your 250,000-unit monthly allowance.",
    );
  });

  it("counts checks otherwise, and says when the allowance cannot pay", () => {
    expect(
      estimateWords(
        { ...estimate, checks: 2, units_per_run: 2, units_per_month: 1_440, workspace_units_per_month: 300_000 },
        false,
      ),
    ).toBe(
      "This monitor will use about 1,440 units a month (2 checks × 720 runs a month); your monitors would then use 300,000 of your 250,000-unit monthly allowance. That is more than the allowance: runs the allowance cannot pay are skipped.",
    );
  });
});

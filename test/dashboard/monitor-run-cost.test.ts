// "Run now" says what a run costs before it is pressed: the monitor's own units_per_run. A project monitor's run costs
// one unit per package version of its project's latest default-ref scan; the page said "1 unit (one per check)" for
// one whose runs cost 3.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RunCost } from "../../app/dashboard/monitors/[id]/RunCost";

const words = (monitor: { checks: { type: string }[]; units_per_run: number }) =>
  renderToStaticMarkup(createElement(RunCost, { monitor }))
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

describe("the cost of running a monitor now", () => {
  it("is a project monitor's units per run, one per package version", () => {
    expect(words({ checks: [{ type: "project" }], units_per_run: 3 })).toBe(
      "Running now costs 3 units (one per package version of the project's latest default-ref scan), like a scheduled run; the schedule does not move.",
    );
  });

  it("is one unit per check for the other checks", () => {
    expect(words({ checks: [{ type: "tls" }, { type: "dns" }], units_per_run: 2 })).toBe(
      "Running now costs 2 units (one per check), like a scheduled run; the schedule does not move.",
    );
    expect(words({ checks: [{ type: "tls" }], units_per_run: 1 })).toContain("costs 1 unit (one per check)");
  });
});

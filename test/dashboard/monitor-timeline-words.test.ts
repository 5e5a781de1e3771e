// A monitor's timeline says each alert's state before -> after. A project check alerts finding by finding, with no
// state before (its `before` is null on every run, not only the first): its alert on a later run read
// "first run → @walk/thing@0.5.0: ...". A check's real first run still says "first run".
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AlertEntry } from "../../app/dashboard/monitors/Timeline";

type Alert = Parameters<typeof AlertEntry>[0]["a"];
const alert = (over: Partial<Alert>): Alert => ({
  id: "mal_1",
  monitor_id: "mon_1",
  type: "monitor.alert",
  check: "project",
  severity: "critical",
  before: null,
  after: null,
  reminder: false,
  open: true,
  run_id: "run_1",
  created_at: "2026-11-29T02:28:00.000Z",
  ...over,
});
const change = (a: Alert) =>
  /data-testid="alert-change">([^<]*)</.exec(renderToStaticMarkup(createElement(AlertEntry, { a })))![1];

const FINDING = {
  finding: "npm:@walk/thing advisory GHSA-late-0003-cccc",
  ecosystem: "npm",
  name: "@walk/thing",
  version: "0.5.0",
  kind: "advisory",
  id: "GHSA-late-0003-cccc",
  severity: "critical",
  summary: "Late advisory in @walk/thing",
  fixed_version: "0.7.0",
};

describe("an alert's change in the timeline", () => {
  it("says a project's new finding was not found before, not that it was the first run", () => {
    expect(change(alert({ after: FINDING }))).toBe(
      "not found before → @walk/thing@0.5.0: Late advisory in @walk/thing, fixed in 0.7.0",
    );
  });

  it("says first run for another check's first alert", () => {
    expect(change(alert({ check: "reachability", after: { online: false } }))).toMatch(/^first run → /);
  });

  it("says the state before when there is one", () => {
    const text = change(
      alert({
        type: "monitor.resolved",
        open: false,
        severity: "info",
        before: FINDING,
        after: { ...FINDING, resolved: true },
      }),
    );
    expect(text).toMatch(/^@walk\/thing@0\.5\.0: Late advisory in @walk\/thing, fixed in 0\.7\.0 → .*no longer found$/);
  });
});

// A project monitor resolves finding by finding, and its resolution carries only the finding's key. The email said
// "[Resolved] Project on demo/two: resolved" (not which finding) with "now: npm:@walk/thing advisory
// GHSA-late-0003-cccc: no longer found" in its body, the state key as stored; the timeline showed the same key. Now
// the subject names the finding and both say it in words.
import { describe, expect, it } from "vitest";
import type { AlertRow } from "../../server/monitors/alert-row";
import { composeAlertEmail } from "../../server/monitors/mailer/compose";
import { stateWords } from "../../server/monitors/state-words";

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
const RESOLVED = { finding: FINDING.finding, resolved: true };

const alert = (over: Partial<AlertRow>): AlertRow => ({
  id: "mal_1",
  monitorId: "mon_1",
  workspaceId: "ws_1",
  type: "monitor.resolved",
  check: "project",
  severity: "info",
  before: FINDING,
  after: RESOLVED,
  reminder: false,
  open: false,
  runId: "run_1",
  createdAt: new Date("2026-11-29T02:53:00Z"),
  lastNotifiedAt: null,
  ...over,
});

describe("a project finding's resolution in words", () => {
  it("names the package, its ecosystem, the kind and the id", () => {
    expect(stateWords("project", RESOLVED)).toBe("@walk/thing (npm): advisory GHSA-late-0003-cccc no longer found");
    expect(stateWords("project", { finding: "pypi:requests install_script", resolved: true })).toBe(
      "requests (pypi): install script no longer found",
    );
  });

  it("is the email's subject and first line, with the finding as it was before", () => {
    const mail = composeAlertEmail({ id: "mon_1", name: null, target: "demo/two" }, alert({}), "http://u/x");
    expect(mail.subject).toBe(
      "[Resolved] Project on demo/two: @walk/thing (npm): advisory GHSA-late-0003-cccc no longer found",
    );
    expect(mail.text).toContain("- now: @walk/thing (npm): advisory GHSA-late-0003-cccc no longer found\n");
    expect(mail.text).toContain("- before: @walk/thing@0.5.0: Late advisory in @walk/thing, fixed in 0.7.0\n");
    expect(mail.text).not.toContain("npm:@walk/thing");
  });

  it("leaves other checks' resolutions as they were", () => {
    const mail = composeAlertEmail(
      { id: "mon_1", name: null, target: "shop.test" },
      alert({ check: "blocklists", before: { listed_on: ["dbl.spamhaus.org"] }, after: { listed_on: [] } }),
      "http://u/x",
    );
    expect(mail.subject).toBe("[Resolved] Blocklists on shop.test: resolved");
  });
});

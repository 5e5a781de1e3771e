// The packages check against the fake package sources (registry and OSV on 127.0.0.1): a listed version reported
// as malware, or affected by an advisory, is a critical alert on the first run; an identical run raises nothing;
// each package is one unit. Both stores.
import { describe, expect, it } from "vitest";
import { runMonitor } from "../../server/monitors/run";
import { createTestApp } from "../harness";
import { useFakePackageSources } from "../vulnerabilities/fake-sources";
import { A, api, monitorDns } from "./helpers";

const app = await createTestApp();
await monitorDns({ "site.test": A() });
useFakePackageSources();

describe("packages", () => {
  it("alerts on a listed version reported as malware, once, at one unit per run for the whole packages check", async () => {
    const ws = await app.seedWorkspace();
    const res = await api(app, ws.apiKey)("POST", "/v1/monitors", {
      target: "site.test",
      checks: [
        {
          type: "packages",
          packages: [
            { ecosystem: "npm", name: "tinted-logs", version: "1.4.2" },
            { ecosystem: "npm", name: "tinted-logs", version: "1.4.3" },
          ],
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.units_per_run).toBe(1);
    const first = await runMonitor(app.db, res.body.id, { now: new Date("2026-11-05T00:00:00Z") });
    expect(first.alerts).toHaveLength(1);
    expect(first.alerts[0]).toMatchObject({
      check: "packages",
      severity: "critical",
      before: null,
      after: {
        "npm:tinted-logs@1.4.2": { malware: true },
        "npm:tinted-logs@1.4.3": { malware: false },
      },
    });
    const again = await runMonitor(app.db, res.body.id, { now: new Date("2026-11-05T01:00:00Z") });
    expect(again.alerts).toEqual([]);
    expect(await app.used(ws.workspaceId)).toBe(2);
  });
});

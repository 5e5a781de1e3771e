// The packages check against the fake package sources (registry and OSV on 127.0.0.1): a listed version reported
// as malware, or affected by an advisory, is a critical alert on the first run; an identical run raises nothing;
// each package is one unit. Both stores.
import { describe, expect, it } from "vitest";
import { runMonitor } from "../../server/monitors/run";
import { clearUpstreamCache } from "../../server/providers/packages/http";
import { clearOsvRecords } from "../../server/providers/packages/osv";
import { publishOsvAdvisory } from "../fakes/packages/fixtures-osv";
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

describe("an advisory published between runs", () => {
  it("alerts once with the advisory before and after, critical for a high one, and not again while it stays", async () => {
    const ws = await app.seedWorkspace();
    const res = await api(app, ws.apiKey)("POST", "/v1/monitors", {
      target: "github.com/acme/logs",
      checks: [{ type: "packages", packages: [{ ecosystem: "npm", name: "tinted-logs", version: "1.4.3" }] }],
    });
    const key = "npm:tinted-logs@1.4.3";
    const first = await runMonitor(app.db, res.body.id, { now: new Date("2026-11-05T00:00:00Z") });
    expect(first.alerts).toEqual([]);
    const withdraw = publishOsvAdvisory("GHSA-tint-late-0003", "tinted-logs", "1.4.3");
    try {
      // A day later: the cached upstream answers have expired.
      clearUpstreamCache();
      clearOsvRecords();
      const second = await runMonitor(app.db, res.body.id, { now: new Date("2026-11-06T00:00:00Z") });
      expect(second.alerts.map((a) => [a.check, a.severity, a.before, a.after])).toEqual([
        [
          "packages",
          "critical",
          { [key]: { advisories: [], malware: false } },
          { [key]: { advisories: ["GHSA-tint-late-0003"], malware: false } },
        ],
      ]);
      clearUpstreamCache();
      clearOsvRecords();
      const third = await runMonitor(app.db, res.body.id, { now: new Date("2026-11-06T01:00:00Z") });
      expect(third.alerts).toEqual([]);
    } finally {
      withdraw();
    }
  });
});

describe("a monitor of packages only names its project", () => {
  const pkg = { ecosystem: "npm", name: "tinted-logs", version: "1.4.3" };

  it("takes a label that is no host (never resolved), runs the check on it and charges one unit", async () => {
    const ws = await app.seedWorkspace();
    const call = api(app, ws.apiKey);
    const res = await call("POST", "/v1/monitors", {
      target: "github.com/acme/shop",
      checks: [{ type: "packages", packages: [pkg] }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ target: "github.com/acme/shop", units_per_run: 1 });
    const plain = await call("POST", "/v1/monitors", {
      target: "shop-frontend",
      checks: [{ type: "packages", packages: [pkg] }],
    });
    expect(plain.status).toBe(200);
    const run = await call("POST", `/v1/monitors/${res.body.id}/run`);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({
      status: "completed",
      units: 1,
      results: { packages: { severity: "ok", state: { "npm:tinted-logs@1.4.3": { malware: false } } } },
    });
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  // "12345" is 0.0.48.57 to a URL parser: a packages monitor stored its label as that address.
  it.each(["12345", "1.1", "0x10"])(
    "stores the label %s exactly as typed, never as the address it spells",
    async (label) => {
      const ws = await app.seedWorkspace();
      const call = api(app, ws.apiKey);
      const res = await call("POST", "/v1/monitors", {
        target: label,
        checks: [{ type: "packages", packages: [pkg] }],
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ target: label, units_per_run: 1 });
      expect((await call("GET", `/v1/monitors/${res.body.id}`)).body.target).toBe(label);
      const run = await call("POST", `/v1/monitors/${res.body.id}/run`);
      expect(run.status).toBe(200);
      expect(run.body).toMatchObject({ status: "completed", units: 1 });
    },
  );

  it("refuses a label beside a check that looks at the target, and a label with spaces, writing nothing", async () => {
    const ws = await app.seedWorkspace();
    const call = api(app, ws.apiKey);
    const withTls = await call("POST", "/v1/monitors", {
      target: "github.com/acme/shop",
      checks: ["tls", { type: "packages", packages: [pkg] }],
    });
    expect(withTls.status).toBe(400);
    expect(withTls.body.error.message).toMatch(/host name, domain or IP address/);
    const spaced = await call("POST", "/v1/monitors", {
      target: "acme shop",
      checks: [{ type: "packages", packages: [pkg] }],
    });
    expect(spaced.status).toBe(400);
    expect(spaced.body.error.message).toMatch(/label for the project/);
    expect((await call("GET", "/v1/monitors")).body.items).toEqual([]);

    const made = await call("POST", "/v1/monitors", {
      target: "github.com/acme/shop",
      checks: [{ type: "packages", packages: [pkg] }],
    });
    const added = await call("PATCH", `/v1/monitors/${made.body.id}`, {
      checks: ["reachability", { type: "packages", packages: [pkg] }],
    });
    expect(added.status).toBe(400);
    expect((await call("GET", `/v1/monitors/${made.body.id}`)).body.checks).toEqual([
      { type: "packages", packages: [pkg] },
    ]);
  });
});

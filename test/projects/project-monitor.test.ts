// Watching a project (issue 46, item 4): a monitor of checks ["project"] scans the project's latest default-ref
// package list again on each run, without an upload, against the fake sources; an advisory the fake OSV server starts
// returning for a shipped version alerts once (monitor.alert event and webhook delivery, with the package, version,
// what was found and the fixed version), and resolves when the project's next scan no longer ships it. Cost: one
// unit per package version, said before creation. Both stores.
import { beforeEach, describe, expect, it } from "vitest";
import { runMonitor } from "../../server/monitors/run";
import { clearUpstreamCache } from "../../server/providers/packages/http";
import { clearOsvRecords } from "../../server/providers/packages/osv";
import { call, ownerAndMember } from "../dashboard/call";
import { publishOsvAdvisory } from "../fakes/packages/fixtures-osv";
import { createTestApp } from "../harness";
import { monitorDns } from "../monitors/helpers";
import { useFakeEpss, useFakePackageSources } from "../vulnerabilities/fake-sources";
import { FIRST, packageLock } from "./lockfiles";

const app = await createTestApp();
await monitorDns();
const sources = useFakePackageSources();
useFakeEpss();
// The machine's other work must not turn a slow fake into an unavailable OSV (the rule under test is not timing).
beforeEach(() => {
  process.env.SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS = "20000";
});

const scan = (key: string, body: string, query: string) =>
  app.request("POST", `/v1/vulnerabilities/scan${query}`, { key, body, headers: { "Content-Type": "text/plain" } });
const api = (key: string) => (method: string, path: string, body?: unknown) =>
  app.request(method, path, { key, ...(body === undefined ? {} : { body }) });

describe("a project monitor", () => {
  it("alerts once on an advisory published for a shipped version and resolves when the next scan drops it", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const v1 = api(ws.apiKey);
    const hook = await v1("POST", "/v1/webhooks", {
      name: "alerts",
      url: "http://127.0.0.1:8080/in",
      event_types: ["monitor.alert", "monitor.resolved"],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    const scanned = await scan(ws.apiKey, FIRST, "?project=acme/web");
    expect(scanned.status, JSON.stringify(scanned.body)).toBe(200);
    expect(await app.used(ws.workspaceId)).toBe(3);

    // The cost, said before creation: the project's 3 package versions per run.
    const { owner } = await ownerAndMember(app.db, "estimate", ["suite_agency"]);
    const estimate = await call(
      owner,
      "monitors.estimate",
      { checks: 1, interval: "24h", project: "acme/web" },
      "query",
    );
    expect(estimate.data).toMatchObject({ units_per_run: 0 }); // another workspace's project is none of its business
    const created = await v1("POST", "/v1/monitors", { target: "acme/web", checks: ["project"], interval: "24h" });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ target: "acme/web", units_per_run: 3 });
    const id = created.body.id;

    const first = await runMonitor(app.db, id, { now: new Date("2026-11-05T00:00:00Z") });
    expect(first).toMatchObject({ status: "completed", alerts: [] }); // the baseline: what the scan already said
    expect(await app.used(ws.workspaceId)).toBe(6);
    // Lookup history names the project and ref the run scanned again, not only the list it sent.
    const history = await v1("GET", "/v1/lookups/history");
    expect(history.body.items.map((e: { target: string }) => e.target)).toEqual([
      "lockfile (of acme/web@default, cyclonedx, 3 packages)",
      "lockfile (project acme/web@default, package-lock, 3 packages)",
    ]);

    const withdraw = publishOsvAdvisory("GHSA-tint-late-0046", "tinted-logs", "1.4.3");
    try {
      clearUpstreamCache();
      clearOsvRecords();
      const second = await runMonitor(app.db, id, { now: new Date("2026-11-06T00:00:00Z") });
      expect(second.alerts.map((a) => [a.type, a.check, a.severity, a.open, a.after])).toEqual([
        [
          "monitor.alert",
          "project",
          "critical",
          true,
          {
            finding: "npm:tinted-logs advisory GHSA-tint-late-0046",
            ecosystem: "npm",
            name: "tinted-logs",
            version: "1.4.3",
            kind: "advisory",
            id: "GHSA-tint-late-0046",
            severity: "high",
            summary: "Vulnerability GHSA-tint-late-0046 in tinted-logs",
            fixed_version: null,
          },
        ],
      ]);
      const events = await app.db.event.findMany({ where: { workspaceId: ws.workspaceId, type: "monitor.alert" } });
      expect(events).toHaveLength(1);
      const deliveries = await app.db.webhookDelivery.findMany({ where: { workspaceId: ws.workspaceId } });
      expect(deliveries.map((d) => d.eventType)).toEqual(["monitor.alert"]);

      clearUpstreamCache();
      clearOsvRecords();
      const third = await runMonitor(app.db, id, { now: new Date("2026-11-07T00:00:00Z") });
      expect(third.alerts).toEqual([]); // once, not again while it stays

      // The project's next scan ships tinted-logs 1.4.1, which the advisory does not affect.
      const next = await scan(
        ws.apiKey,
        packageLock({ jquery: "3.4.1", "@acme/widget": "1.0.0", "tinted-logs": "1.4.1" }),
        "?project=acme/web",
      );
      expect(next.status).toBe(200);
      const fourth = await runMonitor(app.db, id, { now: new Date("2026-11-08T00:00:00Z") });
      expect(fourth.alerts.map((a) => [a.type, a.check, a.open, a.after])).toEqual([
        [
          "monitor.resolved",
          "project",
          false,
          { finding: "npm:tinted-logs advisory GHSA-tint-late-0046", resolved: true },
        ],
      ]);
      const open = await app.db.monitorAlert.count({ where: { monitorId: id, open: true } });
      expect(open).toBe(0);
      const resolved = await app.db.webhookDelivery.count({
        where: { workspaceId: ws.workspaceId, eventType: "monitor.resolved" },
      });
      expect(resolved).toBe(1);
    } finally {
      withdraw();
    }
    // Each run cost the package versions it re-evaluated: the 2 uploads' 6 units and the 4 runs' 12.
    expect(await app.used(ws.workspaceId)).toBe(18);
  });

  it("names the project in lookup history for a run OSV could not answer, which gives its units back", async () => {
    const ws = await app.seedWorkspace();
    const v1 = api(ws.apiKey);
    expect((await scan(ws.apiKey, FIRST, "?project=acme/web")).status).toBe(200);
    const id = (await v1("POST", "/v1/monitors", { target: "acme/web", checks: ["project"] })).body.id;
    sources.current.down.add("osv");
    clearUpstreamCache();
    clearOsvRecords();
    const run = await runMonitor(app.db, id, { now: new Date("2026-11-05T00:00:00Z") });
    expect(run).toMatchObject({ status: "completed", alerts: [] });
    expect(await app.used(ws.workspaceId)).toBe(3); // the upload's; the run's 3 units were given back
    const history = await v1("GET", "/v1/lookups/history");
    expect(history.body.items.map((e: { target: string; status: number }) => [e.target, e.status])).toEqual([
      ["lockfile (of acme/web@default, cyclonedx)", 503],
      [expect.stringMatching(/^lockfile \(project acme\/web@default, package-lock, 3 packages\)$/), 200],
    ]);
  });

  it("neither resolves nor raises again a supply-chain finding when the registry fails for its package in one run", async () => {
    const ws = await app.seedWorkspace();
    const v1 = api(ws.apiKey);
    const base = { "@acme/widget": "1.0.1", "tinted-logs": "1.4.3" };
    expect((await scan(ws.apiKey, packageLock(base), "?project=acme/web")).status).toBe(200);
    const id = (await v1("POST", "/v1/monitors", { target: "acme/web", checks: ["project"] })).body.id;
    const run = async (day: string) => {
      clearUpstreamCache();
      clearOsvRecords();
      const r = await runMonitor(app.db, id, { now: new Date(`2026-11-${day}T00:00:00Z`) });
      expect(r.status).toBe("completed");
      return r.alerts.map((a) => `${a.type} ${(a.after as { finding: string }).finding}`);
    };
    expect(await run("05")).toEqual([]); // the baseline

    // The project's next scan adds jquery: its advisories and its unmaintained finding are alerted, once each.
    expect((await scan(ws.apiKey, packageLock({ ...base, jquery: "3.4.1" }), "?project=acme/web")).status).toBe(200);
    const added = await run("06");
    expect(added).toContain("monitor.alert npm:jquery unmaintained");
    expect(added.every((a) => a.startsWith("monitor.alert npm:jquery "))).toBe(true);

    // The npm registry fails for jquery: its unmaintained finding is unknown this run, not resolved; the advisories
    // (OSV's) stand.
    sources.current.downPackages.add("jquery");
    expect(await run("07")).toEqual([]);
    const kept = (await app.db.monitor.findUniqueOrThrow({ where: { id } })).lastStates as any;
    expect(Object.keys(kept.project.state.findings)).toContain("npm:jquery unmaintained");
    expect(kept.project.state.unavailable).toEqual([]); // known from the previous run

    // The registry is back: nothing is new, and the alert is still the one open.
    sources.current.downPackages.clear();
    expect(await run("08")).toEqual([]);
    const open = await app.db.monitorAlert.findMany({ where: { monitorId: id, open: true } });
    expect(open.map((a) => (a.after as { finding: string }).finding)).toContain("npm:jquery unmaintained");
    expect(open).toHaveLength(added.length);
  });

  it("takes a baseline run without the registry as unknown, not as a package without supply-chain findings", async () => {
    const ws = await app.seedWorkspace();
    const v1 = api(ws.apiKey);
    expect((await scan(ws.apiKey, FIRST, "?project=acme/web")).status).toBe(200);
    const id = (await v1("POST", "/v1/monitors", { target: "acme/web", checks: ["project"] })).body.id;
    sources.current.downPackages.add("jquery");
    clearUpstreamCache();
    const first = await runMonitor(app.db, id, { now: new Date("2026-11-05T00:00:00Z") });
    expect(first.alerts).toEqual([]);
    const stored = (await app.db.monitor.findUniqueOrThrow({ where: { id } })).lastStates as any;
    sources.current.downPackages.clear();
    clearUpstreamCache();
    const second = await runMonitor(app.db, id, { now: new Date("2026-11-06T00:00:00Z") });
    expect(second.alerts).toEqual([]); // jquery's unmaintained finding was there all along
    expect(stored.project.state.unavailable).toEqual(["npm:jquery"]);
    const after = (await app.db.monitor.findUniqueOrThrow({ where: { id } })).lastStates as any;
    expect(Object.keys(after.project.state.findings)).toContain("npm:jquery unmaintained");
    expect(after.project.state.unavailable).toEqual([]);
  });

  it("is refused for a project the workspace has not scanned on its default ref, beside other checks, writing nothing", async () => {
    const ws = await app.seedWorkspace();
    const other = await app.seedWorkspace();
    const v1 = api(ws.apiKey);
    await scan(other.apiKey, FIRST, "?project=acme/web");
    await scan(ws.apiKey, FIRST, "?project=acme/api&ref=main");
    for (const [target, checks] of [
      ["acme/web", ["project"]], // another workspace's project
      ["acme/api", ["project"]], // no scan of the default ref
      ["acme web", ["project"]],
      ["acme/web", ["project", "tls"]],
    ] as const) {
      const res = await v1("POST", "/v1/monitors", { target, checks });
      expect(res.status, target).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
    }
    expect((await v1("GET", "/v1/monitors")).body.items).toEqual([]);
  });

  it("watches a project once: a second project monitor of it, or one changed to watch it, is 409 naming the first", async () => {
    const ws = await app.seedWorkspace();
    const v1 = api(ws.apiKey);
    await scan(ws.apiKey, FIRST, "?project=acme/web");
    await scan(ws.apiKey, FIRST, "?project=acme/api");
    const first = await v1("POST", "/v1/monitors", { target: "acme/web", checks: ["project"] });
    expect(first.status).toBe(200);
    // Sent several times at once, as a double click would: still one watch.
    const again = await Promise.all(
      [1, 2, 3].map(() => v1("POST", "/v1/monitors", { target: "acme/web", checks: ["project"], interval: "24h" })),
    );
    for (const res of again) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("CONFLICT");
      expect(res.body.error.message).toContain(`already watched by monitor ${first.body.id}`);
    }
    // Another project is another watch; changing it to watch the first project is refused, and changes nothing.
    const other = await v1("POST", "/v1/monitors", { target: "acme/api", checks: ["project"] });
    expect(other.status).toBe(200);
    const moved = await v1("PATCH", `/v1/monitors/${other.body.id}`, { target: "acme/web" });
    expect(moved.status).toBe(409);
    expect((await v1("GET", `/v1/monitors/${other.body.id}`)).body.target).toBe("acme/api");
    // The watch itself can be changed (its own row is not the conflict).
    expect((await v1("PATCH", `/v1/monitors/${first.body.id}`, { interval: "24h", name: "web" })).status).toBe(200);
    expect((await v1("GET", "/v1/monitors")).body.items).toHaveLength(2);
    // A second watch saved before the rule (written here directly) keeps its other edits: only a change of what is
    // watched is checked.
    const row = await app.db.monitor.findUniqueOrThrow({ where: { id: first.body.id } });
    await app.db.monitor.create({
      data: {
        id: `${row.id}x`,
        workspaceId: row.workspaceId,
        target: row.target,
        checks: row.checks as object,
        interval: row.interval,
        thresholds: row.thresholds as object,
        nextRunAt: row.nextRunAt,
      },
    });
    expect((await v1("PATCH", `/v1/monitors/${row.id}x`, { name: "old twin" })).status).toBe(200);
  });

  it("is deleted with its project, with its runs and an audit event; a packages monitor labelled alike stays", async () => {
    // It outlived the project: every run then failed with "no stored scan" and alerted after three failed runs.
    const ws = await app.seedWorkspace();
    const v1 = api(ws.apiKey);
    await scan(ws.apiKey, FIRST, "?project=acme/web");
    const m = (await v1("POST", "/v1/monitors", { target: "acme/web", checks: ["project"] })).body;
    await runMonitor(app.db, m.id, { now: new Date("2026-11-05T00:00:00Z") });
    const label = await v1("POST", "/v1/monitors", {
      target: "acme/web",
      checks: [{ type: "packages", packages: [{ ecosystem: "npm", name: "jquery", version: "3.4.1" }] }],
    });
    expect(label.status).toBe(200);
    const deleted = await v1("DELETE", "/v1/projects/acme%2Fweb");
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ name: "acme/web", deleted: true, scans: 1, monitors_deleted: [m.id] });
    expect((await v1("GET", `/v1/monitors/${m.id}`)).status).toBe(404);
    expect(await app.db.monitorRun.count({ where: { monitorId: m.id } })).toBe(0);
    expect((await v1("GET", `/v1/monitors/${label.body.id}`)).status).toBe(200);
    const audit = await v1("GET", "/v1/events?type=audit.monitor.deleted");
    expect(audit.body.items.map((e: any) => e.data.target.id)).toEqual([m.id]);
  });

  it("goes with its project in one change: a failure while deleting the monitor leaves both, and the retry deletes both", async () => {
    // Apart, the scans were committed first: a failure at the monitor left it behind, failing every run, and the
    // retry answered 404 (no scan left) before it reached the monitor. The failure is the database's own: a trigger
    // refuses to delete this monitor's row until it is dropped.
    const ws = await app.seedWorkspace();
    const v1 = api(ws.apiKey);
    await scan(ws.apiKey, FIRST, "?project=acme/web");
    const m = (await v1("POST", "/v1/monitors", { target: "acme/web", checks: ["project"] })).body;
    await runMonitor(app.db, m.id, { now: new Date("2026-11-05T00:00:00Z") });
    expect(await app.db.monitorRun.count({ where: { monitorId: m.id } })).toBe(1);
    await app.db.$executeRawUnsafe(`CREATE FUNCTION refuse_monitor_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD."id" = '${m.id}' THEN RAISE EXCEPTION 'monitor deletion refused by the test'; END IF;
        RETURN OLD;
      END $$`);
    await app.db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_monitor_delete BEFORE DELETE ON "Monitor" FOR EACH ROW EXECUTE FUNCTION refuse_monitor_delete()`,
    );
    try {
      const failed = await v1("DELETE", "/v1/projects/acme%2Fweb");
      expect(failed.status).toBe(500);
      expect(failed.body.error.code).toBe("INTERNAL_ERROR");
    } finally {
      await app.db.$executeRawUnsafe(`DROP TRIGGER refuse_monitor_delete ON "Monitor"`);
      await app.db.$executeRawUnsafe(`DROP FUNCTION refuse_monitor_delete()`);
    }
    // Nothing of it happened: the project, its scan, the monitor and its run are all there, and no audit event.
    expect((await v1("GET", "/v1/projects/acme%2Fweb")).status).toBe(200);
    expect((await v1("GET", `/v1/monitors/${m.id}`)).status).toBe(200);
    expect(await app.db.monitorRun.count({ where: { monitorId: m.id } })).toBe(1);
    const none = await v1("GET", "/v1/events?type=audit.project.deleted");
    expect(none.body.items).toEqual([]);

    const retried = await v1("DELETE", "/v1/projects/acme%2Fweb");
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ name: "acme/web", deleted: true, scans: 1, monitors_deleted: [m.id] });
    expect((await v1("GET", "/v1/projects/acme%2Fweb")).status).toBe(404);
    expect((await v1("GET", `/v1/monitors/${m.id}`)).status).toBe(404);
    expect(await app.db.monitorRun.count({ where: { monitorId: m.id } })).toBe(0);
    expect((await v1("GET", "/v1/events?type=audit.project.deleted")).body.items).toHaveLength(1);
    expect((await v1("GET", "/v1/events?type=audit.monitor.deleted")).body.items).toHaveLength(1);
  });
});

// The scan check against the scans' fake sites on 127.0.0.1 (test/site-scans/sites.ts): a private scan's grade is the
// state; a site graded F is a critical alert on the first run, a B is the quiet baseline. Both stores.
import { afterAll, describe, expect, it } from "vitest";
import { registerBulkProcedures } from "../../server/api/bulk-procedures";
import { runMonitor } from "../../server/monitors/run";
import { SITES, startSiteWorld } from "../site-scans/sites";
import { createTestApp } from "../harness";
import { api } from "./helpers";

const app = await createTestApp();
const world = await startSiteWorld();
const env = { ...process.env };
Object.assign(process.env, {
  SERVICE_TARGET_RESOLVER: "configured",
  SERVICE_DNS_SERVERS: world.dns.address,
  SERVICE_ALLOW_PRIVATE_TARGETS: "1",
  SERVICE_EXTRA_CA_FILE: world.caFile,
});
registerBulkProcedures();
afterAll(async () => {
  process.env = env;
  await world.close();
});

describe("scan", () => {
  it("keeps the grade as the state: F alerts as critical, B is a quiet baseline", async () => {
    const ws = await app.seedWorkspace();
    const monitorOf = async (name: string) =>
      (await api(app, ws.apiKey)("POST", "/v1/monitors", { target: world.startUrl(name), checks: ["scan"] })).body;
    const good = await monitorOf("b.test");
    const bad = await monitorOf("f.test");
    const now = new Date("2026-11-06T00:00:00Z");
    expect((await runMonitor(app.db, good.id, { now })).alerts).toEqual([]);
    const read = (await api(app, ws.apiKey)("GET", `/v1/monitors/${good.id}`)).body;
    expect(read.states.scan).toEqual({ severity: "ok", state: { status: "done", grade: "B" } });
    const r = await runMonitor(app.db, bad.id, { now });
    expect(r.alerts.map((a) => [a.check, a.severity, a.after])).toEqual([
      ["scan", "critical", { status: "done", grade: "F" }],
    ]);
  }, 60_000);

  it("alerts once when a deploy drops the site's security headers and the grade falls", async () => {
    const ws = await app.seedWorkspace();
    const site = SITES.find((s) => s.name === "b.test")!;
    const headers = site.headers;
    const m = (
      await api(app, ws.apiKey)("POST", "/v1/monitors", { target: world.startUrl("b.test"), checks: ["scan"] })
    ).body;
    expect((await runMonitor(app.db, m.id, { now: new Date("2026-11-06T00:00:00Z") })).alerts).toEqual([]);
    site.headers = { "content-type": "text/plain" };
    try {
      const dropped = await runMonitor(app.db, m.id, { now: new Date("2026-11-06T01:00:00Z") });
      expect(dropped.alerts).toHaveLength(1);
      const [alert] = dropped.alerts;
      expect(alert).toMatchObject({ check: "scan", before: { status: "done", grade: "B" } });
      expect((alert!.after as { grade: string }).grade).toMatch(/^[C-F]/);
      const again = await runMonitor(app.db, m.id, { now: new Date("2026-11-06T02:00:00Z") });
      expect(again.alerts).toEqual([]);
    } finally {
      site.headers = headers;
    }
  }, 60_000);
});

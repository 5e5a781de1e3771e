// The ct and reachability checks against local fakes (a crt.sh-compatible CT search and a website on 127.0.0.1):
// a new name in the CT logs is an info alert naming it; a site that stops answering is a critical alert, resolved
// when it answers again. Both stores.
import { afterAll, describe, expect, it } from "vitest";
import { runMonitor } from "../../server/monitors/run";
import { ctEntry, startCtServer } from "../fakes/ct-server";
import { startHttpServer } from "../fakes/http-server";
import { createTestApp } from "../harness";
import { A, api, monitorDns } from "./helpers";

const app = await createTestApp();
await monitorDns({ "example.org": A("127.0.0.1") });
const ct = await startCtServer({ "example.org": [ctEntry(["example.org", "www.example.org"], "2026-01-01")] });
const site = await startHttpServer({ routes: { "/health": { status: 200, body: "ok" } } });
Object.assign(process.env, { SERVICE_CT_URL: ct.url, SERVICE_CT_TIMEOUT_MS: "1000" });
afterAll(async () => {
  await Promise.all([ct.close(), site.close()]);
});

const at = (h: number) => new Date(Date.UTC(2026, 10, 4, h));

describe("ct", () => {
  it("alerts on a new name in the certificate-transparency logs", async () => {
    const ws = await app.seedWorkspace();
    const m = (await api(app, ws.apiKey)("POST", "/v1/monitors", { target: "example.org", checks: ["ct"] })).body;
    const first = await runMonitor(app.db, m.id, { now: at(0) });
    expect(first).toMatchObject({ status: "completed", alerts: [] });
    ct.set("example.org", [
      ctEntry(["example.org", "www.example.org"], "2026-01-01"),
      ctEntry(["login.example.org"], "2026-11-03"),
    ]);
    const second = await runMonitor(app.db, m.id, { now: at(1) });
    expect(second.alerts.map((a) => [a.type, a.severity, a.open])).toEqual([["monitor.alert", "info", false]]);
    expect(Object.keys((second.alerts[0]!.after as { names: object }).names)).toContain("login.example.org");
    expect(Object.keys((second.alerts[0]!.before as { names: object }).names)).not.toContain("login.example.org");
  });
});

describe("reachability", () => {
  it("alerts when the URL stops answering and resolves when it answers again", async () => {
    const ws = await app.seedWorkspace();
    const m = (
      await api(app, ws.apiKey)("POST", "/v1/monitors", {
        target: `http://example.org:${site.port}/health`,
        checks: ["reachability"],
      })
    ).body;
    expect(m.target).toBe(`http://example.org:${site.port}/health`);
    expect((await runMonitor(app.db, m.id, { now: at(0) })).alerts).toEqual([]);
    site.setRoute("/health", { status: 503, body: "down" });
    const down = await runMonitor(app.db, m.id, { now: at(1) });
    expect(down.alerts.map((a) => [a.type, a.severity, a.before, a.after])).toEqual([
      ["monitor.alert", "critical", { online: true }, { online: false }],
    ]);
    site.setRoute("/health", { status: 200, body: "ok" });
    expect((await runMonitor(app.db, m.id, { now: at(2) })).alerts.map((a) => a.type)).toEqual(["monitor.resolved"]);
  });
});

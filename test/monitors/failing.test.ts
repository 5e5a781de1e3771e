// A check that keeps failing is not silent: the DNS server on 127.0.0.1 that the monitor's lookups use stops
// answering (it drops every query, as a resolver that is down does). Two failed runs keep the last state without an
// alert; the third raises one `monitor.alert` with `check_failing` (the reason, since when, how many runs), as an
// event, a signed webhook delivery and an email; it is never repeated while the check keeps failing, not even a day
// later; the first run that works again resolves it. A streak broken by a run that works starts again from zero.
// Both stores: DATABASE_URL selects PostgreSQL.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getOpenApiDocument } from "../../server/api/rest/openapi";
import { runMonitor } from "../../server/monitors/run";
import { runWebhookDeliveriesOnce } from "../../server/webhooks/worker";
import { startWebhookReceiver } from "../fakes/webhook-receiver";
import { createTestApp } from "../harness";
import { A, api, monitorDns } from "./helpers";

const app = await createTestApp();
const dns = await monitorDns({ "shop.test": A() });
const rx = await startWebhookReceiver();
afterAll(() => rx.close());

beforeEach(() => {
  dns.down = false;
  dns.setFailure("shop.test", null);
  rx.received.length = 0;
});

const HOUR = 3_600_000;
const T0 = new Date("2026-11-05T08:00:00Z");
const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);

async function dnsMonitor(key: string) {
  const res = await api(app, key)("POST", "/v1/monitors", {
    name: "Shop",
    target: "shop.test",
    checks: [{ type: "dns", record_types: ["A"] }],
    interval: "1h",
  });
  expect(res.status).toBe(200);
  return res.body as { id: string };
}

const run = async (id: string, hours: number) => {
  const r = await runMonitor(app.db, id, { now: at(hours) });
  expect(r.status).toBe("completed");
  return r;
};

describe("a check that cannot run", () => {
  it("alerts once after three failed runs in a row, never again while it fails, and resolves when it runs", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const call = api(app, ws.apiKey);
    await app.db.member.create({
      data: {
        id: `mbr_failing_${ws.workspaceId}`,
        workspaceId: ws.workspaceId,
        email: "owner@corp.test",
        role: "owner",
      },
    });
    process.env.SERVICE_SMTP_URL = "smtp://127.0.0.1:9";
    process.env.SERVICE_SMTP_FROM = "alerts@service.test";
    await call("POST", "/v1/webhooks", {
      name: "monitors",
      url: rx.url,
      event_types: ["monitor.alert", "monitor.resolved"],
    });
    const m = await dnsMonitor(ws.apiKey);
    expect((await run(m.id, 0)).alerts).toEqual([]);

    dns.down = true;
    const first = await run(m.id, 1);
    expect(first.alerts).toEqual([]);
    const failedRun = (await call("GET", `/v1/monitors/${m.id}/runs?limit=1`)).body.items[0];
    expect(failedRun.results.dns).toMatchObject({
      severity: null,
      state: null,
      error: { code: "UPSTREAM_UNAVAILABLE" },
    });
    // The check keeps its last state: nothing in the monitor says it is dead yet.
    expect((await call("GET", `/v1/monitors/${m.id}`)).body.states.dns.severity).toBe("ok");
    expect((await run(m.id, 2)).alerts).toEqual([]);

    const third = await run(m.id, 3);
    expect(third.alerts).toHaveLength(1);
    const alert = third.alerts[0]!;
    expect(alert).toMatchObject({ type: "monitor.alert", check: "dns", severity: "warning", open: true });
    expect(alert.before).toEqual({ A: { status: "NOERROR", records: ["127.0.0.1"] } });
    expect(alert.after).toEqual({
      check_failing: true,
      reason: failedRun.results.dns.error.message,
      code: "UPSTREAM_UNAVAILABLE",
      since: at(1).toISOString(),
      failed_runs: 3,
    });

    // Never repeated while it keeps failing, not even after the 24 hours that remind of a bad state.
    for (const h of [4, 5, 30]) expect((await run(m.id, h)).alerts).toEqual([]);

    dns.down = false;
    const back = await run(m.id, 31);
    expect(back.alerts.map((a) => [a.type, a.check, a.severity, a.open])).toEqual([
      ["monitor.resolved", "dns", "info", false],
    ]);
    expect(back.alerts[0]!.before).toMatchObject({ check_failing: true, since: at(1).toISOString(), failed_runs: 6 });
    expect(back.alerts[0]!.after).toEqual({ check_failing: false });
    expect(await app.db.monitorAlert.count({ where: { monitorId: m.id, open: true } })).toBe(0);
    // The same record set as before the outage: no state alert beside the resolution.
    expect((await run(m.id, 32)).alerts).toEqual([]);

    const events = (await call("GET", "/v1/events?type=monitor.&limit=10")).body.items;
    expect(events.map((e: { type: string; data: { after: unknown } }) => [e.type, e.data.after])).toEqual([
      ["monitor.resolved", { check_failing: false }],
      ["monitor.alert", alert.after],
    ]);
    expect(events[1].data).toMatchObject({ check: "dns", severity: "warning", monitor: { id: m.id, name: "Shop" } });

    await runWebhookDeliveriesOnce(app.db);
    const delivered = rx.received.map((r) => JSON.parse(r.body));
    expect(delivered.map((d) => [d.type, d.data.check, d.data.after.check_failing]).sort()).toEqual([
      ["monitor.alert", "dns", true],
      ["monitor.resolved", "dns", false],
    ]);

    const emails = await app.db.monitorEmail.findMany({ where: { monitorId: m.id }, orderBy: { createdAt: "asc" } });
    expect(emails.map((e) => e.subject)).toEqual([
      expect.stringMatching(/^\[Warning\] DNS records on shop\.test: could not run in 3 runs in a row since /),
      "[Resolved] DNS records on shop.test: resolved",
    ]);
    expect(emails[0]!.text).toContain(failedRun.results.dns.error.message);
    expect(emails[1]!.text).toContain("runs again, after 6 failed runs");
    delete process.env.SERVICE_SMTP_URL;
    delete process.env.SERVICE_SMTP_FROM;
  });

  it("starts counting again after a run that works", async () => {
    const ws = await app.seedWorkspace();
    const m = await dnsMonitor(ws.apiKey);
    await run(m.id, 0);
    dns.down = true;
    await run(m.id, 1);
    await run(m.id, 2);
    dns.down = false;
    expect((await run(m.id, 3)).alerts).toEqual([]);
    dns.down = true;
    expect((await run(m.id, 4)).alerts).toEqual([]);
    expect((await run(m.id, 5)).alerts).toEqual([]);
    const third = await run(m.id, 6);
    expect(third.alerts.map((a) => [a.type, (a.after as { since: string }).since])).toEqual([
      ["monitor.alert", at(4).toISOString()],
    ]);
  });

  it("keeps a state alert and a failing alert apart: the failure neither reminds of nor resolves the state alert", async () => {
    const ws = await app.seedWorkspace();
    const m = await dnsMonitor(ws.apiKey);
    await run(m.id, -1);
    dns.setFailure("shop.test", "NXDOMAIN");
    const broken = await run(m.id, 0);
    expect(broken.alerts.map((a) => [a.type, a.severity, a.open])).toEqual([["monitor.alert", "critical", true]]);
    dns.down = true;
    for (const h of [1, 2]) expect((await run(m.id, h)).alerts).toEqual([]);
    // 26 hours after the state alert: a reminder would be due, but the check is not running; only the failure alerts.
    const failing = await run(m.id, 26);
    expect(
      failing.alerts.map((a) => [a.type, a.check, (a.after as { check_failing?: boolean }).check_failing]),
    ).toEqual([["monitor.alert", "dns", true]]);
    expect(await app.db.monitorAlert.count({ where: { monitorId: m.id, open: true } })).toBe(2);
    dns.down = false;
    const back = await run(m.id, 27);
    // The failure resolves; the state is still NXDOMAIN, and its open alert is reminded of (a day has passed).
    expect(back.alerts.map((a) => [a.type, a.reminder])).toEqual([
      ["monitor.resolved", false],
      ["monitor.alert", true],
    ]);
    expect(await app.db.monitorAlert.count({ where: { monitorId: m.id, open: true } })).toBe(1);
  });

  it("is described in the OpenAPI document: the monitors, their alerts, the webhooks and the events", () => {
    const paths = (getOpenApiDocument() as { paths: Record<string, Record<string, { description?: string }>> }).paths;
    for (const [path, method] of [
      ["/monitors", "post"],
      ["/monitors/{id}/alerts", "get"],
      ["/monitors/{id}/runs", "get"],
      ["/webhooks", "post"],
      ["/events", "get"],
    ] as const)
      expect(paths[path]?.[method]?.description, `${method} ${path}`).toContain("check_failing");
  });
});

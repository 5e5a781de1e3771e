// Monitor runs against real local fakes (a TLS server whose certificate is swapped between runs, a DNS server
// playing the domain's zone and the DNS blocklist): each run charges one unit per check and writes a run row; a
// change is one alert with before and after, never repeated by an identical run, reminded after 24 hours and
// resolved when it clears; a run the allowance cannot pay is skipped with exactly one alert. `now` is passed
// explicitly instead of faking timers. Both stores: DATABASE_URL selects PostgreSQL.
import { beforeEach, describe, expect, it } from "vitest";
import { flushLookupHistory } from "../../server/history/history";
import { runMonitor } from "../../server/monitors/run";
import { adjustUsage } from "../../server/quota/adjust";
import { healthyZone } from "../senders/helpers";
import { createTestPki, startTlsServer } from "../fakes/tls-server";
import { createTestApp } from "../harness";
import { A, api, monitorDns } from "./helpers";

const app = await createTestApp();
const zone = { "site.test": A(), ...healthyZone("site.test") };
// The SPF TXT record sits beside the A record of the same name.
zone["site.test"] = [...A(), ...healthyZone("site.test")["site.test"]!];
const dns = await monitorDns(zone);
const pki = createTestPki();
process.env.SERVICE_EXTRA_CA_FILE = pki.caFile;
const longCert = pki.issue({ names: ["site.test"], days: 90 });
const tlsServer = await startTlsServer(longCert);

const HOUR = 3_600_000;
const T0 = new Date("2026-11-02T08:00:00Z");
const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);

beforeEach(() => {
  for (const [name, recs] of Object.entries(zone)) dns.setRecords(name, recs);
  dns.removeRecords("site.test.dbl.spamhaus.org");
  tlsServer.setCertificate(longCert);
});

async function monitor(key: string, checks: unknown[], target = `site.test:${tlsServer.port}`) {
  const res = await api(app, key)("POST", "/v1/monitors", { target, checks, interval: "1h" });
  expect(res.status).toBe(200);
  return res.body as { id: string; units_per_run: number };
}

const alerts = async (key: string, id: string) =>
  (await api(app, key)("GET", `/v1/monitors/${id}/alerts?limit=50`)).body.items.reverse();

describe("a run", () => {
  it("charges one unit per check, writes a run row and stores each check's state", async () => {
    const ws = await app.seedWorkspace();
    const m = await monitor(ws.apiKey, ["tls", { type: "dns", record_types: ["A"] }, "email_security", "blocklists"]);
    expect(m.units_per_run).toBe(4);
    const res = await api(app, ws.apiKey)("POST", `/v1/monitors/${m.id}/run`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ monitor_id: m.id, status: "completed", units: 4, reason: null, alerts: [] });
    expect(res.body.results.tls).toMatchObject({
      severity: "ok",
      error: null,
      units: 1,
      state: { connected: true, expiry: "ok", chain_valid: true, name_matches: true },
    });
    expect(res.body.results.dns).toMatchObject({
      severity: "ok",
      state: { A: { status: "NOERROR", records: ["127.0.0.1"] } },
    });
    expect(res.body.results.email_security).toMatchObject({ severity: "ok", state: { spf: "pass", dmarc: "pass" } });
    expect(res.body.results.blocklists).toMatchObject({ severity: "ok", state: { listed_on: [] } });
    expect(await app.used(ws.workspaceId)).toBe(4);
    const ledger = await app.db.usageLedger.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(ledger.map((l) => [l.endpoint, l.units])).toEqual([["monitor.run", 4]]);
    expect(await app.db.monitorRun.count({ where: { monitorId: m.id } })).toBe(1);
    const read = (await api(app, ws.apiKey)("GET", `/v1/monitors/${m.id}`)).body;
    expect(Object.keys(read.states).sort()).toEqual(["blocklists", "dns", "email_security", "tls"]);
    expect(read.last_run_at).not.toBeNull();
    const runs = (await api(app, ws.apiKey)("GET", `/v1/monitors/${m.id}/runs`)).body;
    expect(runs).toMatchObject({ items: [{ id: res.body.id, units: 4 }], next_cursor: null });
  });

  it("charges one unit for a dns check of three record types: three history entries whose units add up to 1", async () => {
    const ws = await app.seedWorkspace();
    const m = await monitor(ws.apiKey, [{ type: "dns", record_types: ["A", "MX", "TXT"] }]);
    expect(m.units_per_run).toBe(1);
    const res = await api(app, ws.apiKey)("POST", `/v1/monitors/${m.id}/run`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "completed", units: 1, results: { dns: { units: 1, error: null } } });
    expect(await app.used(ws.workspaceId)).toBe(1);
    await flushLookupHistory();
    const history = await app.db.lookupHistory.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(history).toHaveLength(3);
    expect(history.reduce((n, h) => n + (h.units ?? 0), 0)).toBe(1);
  });

  it("alerts once on a certificate about to expire, reminds after 24 hours, and resolves when it is renewed", async () => {
    const ws = await app.seedWorkspace();
    const m = await monitor(ws.apiKey, ["tls"]);
    expect((await runMonitor(app.db, m.id, { now: at(0) })).alerts).toEqual([]);
    tlsServer.setCertificate(pki.issue({ names: ["site.test"], days: 5 }));
    const changed = await runMonitor(app.db, m.id, { now: at(1) });
    expect(changed.alerts).toHaveLength(1);
    expect((await runMonitor(app.db, m.id, { now: at(2) })).alerts).toEqual([]);
    expect((await runMonitor(app.db, m.id, { now: at(24.5) })).alerts).toEqual([]);
    const reminder = await runMonitor(app.db, m.id, { now: at(25) });
    expect(reminder.alerts).toHaveLength(1);
    expect((await runMonitor(app.db, m.id, { now: at(26) })).alerts).toEqual([]);
    tlsServer.setCertificate(longCert);
    expect((await runMonitor(app.db, m.id, { now: at(27) })).alerts).toHaveLength(1);
    expect((await runMonitor(app.db, m.id, { now: at(28) })).alerts).toEqual([]);

    const timeline = await alerts(ws.apiKey, m.id);
    expect(timeline.map((a: any) => [a.type, a.check, a.severity, a.reminder, a.open])).toEqual([
      ["monitor.alert", "tls", "critical", false, false],
      ["monitor.alert", "tls", "critical", true, false],
      ["monitor.resolved", "tls", "info", false, false],
    ]);
    expect(timeline[0].before).toMatchObject({ expiry: "ok" });
    expect(timeline[0].after).toMatchObject({ expiry: "within_7_days", chain_valid: true });
    expect(timeline[2]).toMatchObject({ before: { expiry: "within_7_days" }, after: { expiry: "ok" } });
    expect(timeline[0].created_at).toBe(at(1).toISOString());
    const events = (await api(app, ws.apiKey)("GET", "/v1/events?type=monitor.&limit=10")).body.items;
    expect(events.map((e: { type: string }) => e.type).sort()).toEqual([
      "monitor.alert",
      "monitor.alert",
      "monitor.resolved",
    ]);
    expect(await app.used(ws.workspaceId)).toBe(8);
  });

  it("warns at the larger threshold before the smaller one", async () => {
    const ws = await app.seedWorkspace();
    const m = await monitor(ws.apiKey, ["tls"]);
    tlsServer.setCertificate(pki.issue({ names: ["site.test"], days: 15 }));
    const r = await runMonitor(app.db, m.id, { now: at(0) });
    expect(r.alerts.map((a) => [a.severity, (a.after as { expiry: string }).expiry])).toEqual([
      ["warning", "within_21_days"],
    ]);
  });

  it("alerts when the domain loses its DMARC record, with the verdicts before and after", async () => {
    const ws = await app.seedWorkspace();
    const m = await monitor(ws.apiKey, [{ type: "email_security", selectors: ["s1"] }]);
    expect((await runMonitor(app.db, m.id, { now: at(0) })).alerts).toEqual([]);
    dns.removeRecords("_dmarc.site.test");
    const r = await runMonitor(app.db, m.id, { now: at(1) });
    expect(r.alerts).toHaveLength(1);
    expect(r.alerts[0]).toMatchObject({
      check: "email_security",
      severity: "critical",
      before: { dmarc: "pass", dmarc_policy: "reject", dkim_selectors: ["s1"] },
      after: { dmarc: "fail", dmarc_policy: null },
    });
  });

  it("alerts when a DNS blocklist starts listing the domain, and resolves when it stops", async () => {
    const ws = await app.seedWorkspace();
    const m = await monitor(ws.apiKey, ["blocklists"], "site.test");
    expect((await runMonitor(app.db, m.id, { now: at(0) })).alerts).toEqual([]);
    dns.setRecords("site.test.dbl.spamhaus.org", [{ type: "A", data: "127.0.1.2" }]);
    const listed = await runMonitor(app.db, m.id, { now: at(1) });
    expect(listed.alerts.map((a) => [a.type, a.severity, a.before, a.after])).toEqual([
      ["monitor.alert", "critical", { listed_on: [] }, { listed_on: ["dbl.spamhaus.org"] }],
    ]);
    dns.removeRecords("site.test.dbl.spamhaus.org");
    expect((await runMonitor(app.db, m.id, { now: at(2) })).alerts.map((a) => a.type)).toEqual(["monitor.resolved"]);
  });

  it("alerts a change once when two runs of the same monitor finish together", async () => {
    const ws = await app.seedWorkspace();
    const m = await monitor(ws.apiKey, ["blocklists"], "site.test");
    await runMonitor(app.db, m.id, { now: at(0) });
    dns.setRecords("site.test.dbl.spamhaus.org", [{ type: "A", data: "127.0.1.2" }]);
    const both = await Promise.all([
      runMonitor(app.db, m.id, { now: at(1) }),
      runMonitor(app.db, m.id, { now: at(1) }),
    ]);
    expect(both.flatMap((r) => r.alerts)).toHaveLength(1);
    expect(await app.db.monitorAlert.count({ where: { monitorId: m.id } })).toBe(1);
  });

  it("raises an info alert for a changed DNS record set, which opens nothing", async () => {
    const ws = await app.seedWorkspace();
    const m = await monitor(ws.apiKey, [{ type: "dns", record_types: ["A"] }], "site.test");
    await runMonitor(app.db, m.id, { now: at(0) });
    dns.setRecords("site.test", [...A("127.0.0.2"), ...zone["site.test"]!.filter((r) => r.type !== "A")]);
    const r = await runMonitor(app.db, m.id, { now: at(1) });
    expect(r.alerts.map((a) => [a.severity, a.open, a.before, a.after])).toEqual([
      [
        "info",
        false,
        { A: { status: "NOERROR", records: ["127.0.0.1"] } },
        { A: { status: "NOERROR", records: ["127.0.0.2"] } },
      ],
    ]);
  });
});

describe("the timeline", () => {
  it("keeps runs and closed alerts for the workspace's event retention, and a new target starts a fresh baseline", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const m = await monitor(ws.apiKey, ["blocklists"], "site.test");
    dns.setRecords("site.test.dbl.spamhaus.org", [{ type: "A", data: "127.0.1.2" }]);
    const old = await runMonitor(app.db, m.id, { now: at(0) });
    expect(old.alerts.map((a) => [a.type, a.open])).toEqual([["monitor.alert", true]]);
    // 91 days later (Suite Business keeps events 90 days): the first run goes, the open alert stays.
    await runMonitor(app.db, m.id, { now: at(91 * 24) });
    const runs = await app.db.monitorRun.findMany({ where: { monitorId: m.id } });
    expect(runs.map((r) => r.id)).not.toContain(old.runId);
    expect(runs).toHaveLength(1);
    expect(await app.db.monitorAlert.count({ where: { monitorId: m.id, open: true } })).toBe(1);

    const changed = await api(app, ws.apiKey)("PATCH", `/v1/monitors/${m.id}`, { target: "127.0.0.1" });
    expect(changed.body).toMatchObject({ target: "127.0.0.1", states: {} });
    expect(await app.db.monitorAlert.count({ where: { monitorId: m.id, open: true } })).toBe(0);
  });
});

describe("an edit that keeps the target and checks", () => {
  it("keeps the baseline and the open alert, which the next run resolves, as the dashboard's form sends every field", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const checks = ["blocklists", { type: "dns", record_types: ["A", "MX"] }];
    const m = await monitor(ws.apiKey, checks, "site.test");
    dns.setRecords("site.test.dbl.spamhaus.org", [{ type: "A", data: "127.0.1.2" }]);
    const listed = await runMonitor(app.db, m.id, { now: at(0) });
    expect(listed.alerts.map((a) => [a.type, a.check, a.open])).toEqual([["monitor.alert", "blocklists", true]]);

    // The same target and checks (the dns check's options in another key order), a new name and interval.
    const edited = await api(app, ws.apiKey)("PATCH", `/v1/monitors/${m.id}`, {
      name: "Shop",
      target: "site.test",
      checks: [{ record_types: ["A", "MX"], type: "dns" }, "blocklists"],
      interval: "6h",
    });
    expect(edited.status).toBe(200);
    expect(Object.keys(edited.body.states).sort()).toEqual(["blocklists", "dns"]);
    expect(await app.db.monitorAlert.count({ where: { monitorId: m.id, open: true } })).toBe(1);

    dns.removeRecords("site.test.dbl.spamhaus.org");
    const cleared = await runMonitor(app.db, m.id, { now: at(6) });
    expect(cleared.alerts.map((a) => [a.type, a.check])).toEqual([["monitor.resolved", "blocklists"]]);

    // Other checks are new checks: a fresh baseline, and the open alerts close with it.
    dns.setRecords("site.test.dbl.spamhaus.org", [{ type: "A", data: "127.0.1.2" }]);
    await runMonitor(app.db, m.id, { now: at(12) });
    const rechecked = await api(app, ws.apiKey)("PATCH", `/v1/monitors/${m.id}`, { checks: ["blocklists"] });
    expect(rechecked.body.states).toEqual({});
    expect(await app.db.monitorAlert.count({ where: { monitorId: m.id, open: true } })).toBe(0);
  });
});

describe("a run the allowance cannot pay", () => {
  it("is skipped and recorded, with exactly one alert until runs are paid again", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"], usedUnits: 998 });
    const res = await api(app, ws.apiKey)("POST", "/v1/monitors", {
      target: `site.test:${tlsServer.port}`,
      checks: ["tls", "blocklists", { type: "dns", record_types: ["A"] }],
      interval: "24h",
    });
    const m = res.body;
    const first = await runMonitor(app.db, m.id, { now: at(0) });
    expect(first.status).toBe("skipped");
    expect(first.alerts.map((a) => [a.type, a.check, a.severity, a.open])).toEqual([
      ["monitor.skipped", "run", "warning", true],
    ]);
    const second = await runMonitor(app.db, m.id, { now: at(24) });
    expect(second).toMatchObject({ status: "skipped", alerts: [] });
    expect(await app.used(ws.workspaceId)).toBe(998);
    const runs = (await api(app, ws.apiKey)("GET", `/v1/monitors/${m.id}/runs`)).body.items;
    expect(runs.map((r: any) => [r.status, r.units, r.results])).toEqual([
      ["skipped", 0, null],
      ["skipped", 0, null],
    ]);
    expect(runs[0].reason).toMatch(/needs 3 lookup units/);
    // A run asked for through the API is told instead: 402 and nothing recorded.
    const manual = await api(app, ws.apiKey)("POST", `/v1/monitors/${m.id}/run`);
    expect(manual.status).toBe(402);
    expect(manual.body.error.code).toBe("QUOTA_EXCEEDED");
    // A run asked for now is refused, not skipped: its message says nothing ran, as the runs list shows none.
    expect(manual.body.error.message).toMatch(
      /has not that many left; nothing was run or charged\. The allowance resets/,
    );
    expect(await app.db.monitorRun.count({ where: { monitorId: m.id } })).toBe(2);
    expect((await api(app, ws.apiKey)("GET", "/v1/events?type=monitor.skipped")).body.items).toHaveLength(1);

    await adjustUsage(app.db, { workspaceId: ws.workspaceId, units: -998, reason: "test: allowance back" });
    const paid = await runMonitor(app.db, m.id, { now: at(48) });
    expect(paid.status).toBe("completed");
    expect(paid.alerts.map((a) => [a.type, a.check])).toEqual([["monitor.resolved", "run"]]);
    expect(await app.used(ws.workspaceId)).toBe(3);
  });
});

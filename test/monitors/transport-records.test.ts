// The email_security check watches the transport and brand records too, not only SPF, DKIM and DMARC: a TLS-RPT,
// BIMI, MTA-STS or DANE (TLSA) record changed in the domain's zone (the fake DNS server on 127.0.0.1) is an alert naming the
// verdict before and after; a record that turns unusable is a critical alert, and fixing it resolves it. `now` is
// passed explicitly. Both stores: DATABASE_URL selects PostgreSQL.
import { randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import type { FakeRecord } from "../fakes/dns-server";
import { runMonitor } from "../../server/monitors/run";
import { healthyZone } from "../senders/helpers";
import { createTestApp } from "../harness";
import { api, monitorDns, TXT } from "./helpers";

const app = await createTestApp();
const zone = healthyZone("mail.test");
const dns = await monitorDns(zone);
// Every lookup here is answered: a generous timeout keeps a slow first run (a cold database) from reading "unknown".
process.env.SERVICE_DNS_TIMEOUT_MS = "3000";

const at = (h: number) => new Date(Date.UTC(2026, 10, 6, h));
const TLS_RPT = "_smtp._tls.mail.test";
const BIMI = "default._bimi.mail.test";
const MTA_STS = "_mta-sts.mail.test";
const TLSA_NAME = "_25._tcp.mx.mail.test";
const tlsa = (bytes: number): FakeRecord => ({
  type: "TLSA",
  data: { usage: 3, selector: 1, matchingType: 1, certificate: randomBytes(bytes) },
});

beforeEach(() => {
  for (const [name, records] of Object.entries(zone)) dns.setRecords(name, records);
  for (const name of [TLS_RPT, BIMI, MTA_STS, TLSA_NAME]) dns.removeRecords(name);
});

async function emailMonitor() {
  const ws = await app.seedWorkspace();
  const res = await api(app, ws.apiKey)("POST", "/v1/monitors", {
    target: "mail.test",
    checks: [{ type: "email_security", selectors: ["s1"] }],
    interval: "1h",
  });
  expect(res.status).toBe(200);
  const id = res.body.id as string;
  const first = await runMonitor(app.db, id, { now: at(0) });
  expect(first).toMatchObject({ status: "completed", alerts: [] });
  return id;
}

type Alert = { type: string; severity: string; open: boolean; before: unknown; after: unknown };
const summary = (alerts: Alert[], key: string) =>
  alerts.map((a) => [
    a.type,
    a.severity,
    (a.before as Record<string, unknown> | null)?.[key],
    (a.after as Record<string, unknown> | null)?.[key],
  ]);

describe("the email_security check on transport and brand records", () => {
  it("alerts when a TLS-RPT record is published, turns unusable, and resolves when it is fixed", async () => {
    const id = await emailMonitor();
    dns.setRecords(TLS_RPT, [TXT("v=TLSRPTv1; rua=mailto:tls@mail.test")]);
    const published = await runMonitor(app.db, id, { now: at(1) });
    expect(summary(published.alerts, "tlsRpt")).toEqual([["monitor.alert", "info", "warn", "pass"]]);

    dns.setRecords(TLS_RPT, [TXT("v=TLSRPTv1; rua=ftp://reports.example.net")]);
    const broken = await runMonitor(app.db, id, { now: at(2) });
    expect(summary(broken.alerts, "tlsRpt")).toEqual([["monitor.alert", "critical", "pass", "fail"]]);
    expect(broken.alerts[0]!.open).toBe(true);

    dns.setRecords(TLS_RPT, [TXT("v=TLSRPTv1; rua=mailto:tls@mail.test")]);
    const fixed = await runMonitor(app.db, id, { now: at(3) });
    expect(summary(fixed.alerts, "tlsRpt")).toEqual([["monitor.resolved", "info", "fail", "pass"]]);
  });

  it("alerts when the BIMI record's logo URL stops being https", async () => {
    const id = await emailMonitor();
    dns.setRecords(BIMI, [TXT("v=BIMI1; l=https://brand.example.net/logo.svg")]);
    // A logo without a mark certificate is still a warning, as no record was: the verdict did not change.
    expect((await runMonitor(app.db, id, { now: at(1) })).alerts).toEqual([]);

    dns.setRecords(BIMI, [TXT("v=BIMI1; l=http://brand.example.net/logo.svg")]);
    const broken = await runMonitor(app.db, id, { now: at(2) });
    expect(summary(broken.alerts, "bimi")).toEqual([["monitor.alert", "critical", "warn", "fail"]]);
  });

  it("alerts when a DANE TLSA record of the MX host turns malformed, and resolves when it is removed", async () => {
    dns.setRecords("mail.test", [
      ...zone["mail.test"]!,
      { type: "MX", data: { preference: 10, exchange: "mx.mail.test" } },
    ]);
    const id = await emailMonitor();
    dns.setRecords(TLSA_NAME, [tlsa(20)]); // a SHA-256 digest of 20 bytes: senders using DANE cannot match it
    const broken = await runMonitor(app.db, id, { now: at(1) });
    expect(summary(broken.alerts, "dane")).toEqual([["monitor.alert", "critical", "warn", "fail"]]);

    dns.removeRecords(TLSA_NAME);
    const fixed = await runMonitor(app.db, id, { now: at(2) });
    expect(summary(fixed.alerts, "dane")).toEqual([["monitor.resolved", "info", "fail", "warn"]]);
  });

  it("alerts when an MTA-STS record is published without a policy that can be read", async () => {
    const id = await emailMonitor();
    dns.setRecords(MTA_STS, [TXT("v=STSv1; id=20261106")]);
    const published = await runMonitor(app.db, id, { now: at(1) });
    expect(summary(published.alerts, "mtaSts")).toEqual([["monitor.alert", "critical", "warn", "fail"]]);
  });
});

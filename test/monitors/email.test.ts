// Alert emails against a local SMTP server started here (test/fakes/smtp-server.ts): an alert emails the
// workspace's owners (exactly them, with the subject naming severity, check and target, the dashboard link and the
// unsubscribe link and headers), or the chosen members only; nothing when disabled or when SERVICE_SMTP_URL is unset;
// a refused send is retried later and delivered once; the unsubscribe link stops that recipient for that monitor
// only, twice is fine, and a tampered token is 400. Both stores: DATABASE_URL selects PostgreSQL.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { sendDueMonitorEmails } from "../../server/monitors/mailer/send";
import { runMonitor } from "../../server/monitors/run";
import { startSmtpServer } from "../fakes/smtp-server";
import { createTestApp } from "../harness";
import { A, api, monitorDns } from "./helpers";

const app = await createTestApp();
const dns = await monitorDns({ "shop.test": A() });
const smtp = await startSmtpServer();
afterAll(() => smtp.close());

beforeEach(() => {
  process.env.SERVICE_SMTP_URL = smtp.url;
  process.env.SERVICE_SMTP_FROM = "alerts@service.test";
  dns.removeRecords("shop.test.dbl.spamhaus.org");
  smtp.received.length = 0;
});

let n = 0;
async function workspaceWithPeople() {
  const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
  const tag = ++n;
  const people = { owner1: `own1-${tag}@corp.test`, owner2: `own2-${tag}@corp.test`, member: `mem-${tag}@corp.test` };
  for (const [email, role] of [
    [people.owner1, "owner"],
    [people.owner2, "owner"],
    [people.member, "member"],
  ])
    await app.db.member.create({ data: { id: `mbr_${tag}_${email}`, workspaceId: ws.workspaceId, email, role } });
  return { ...ws, people };
}

const T = (h: number) => new Date(Date.UTC(2026, 10, 3, 10 + h));

/** A baseline run, then a DNS blocklist listing: one critical alert. */
async function alertOnce(monitorId: string, hour = 0) {
  dns.removeRecords("shop.test.dbl.spamhaus.org");
  await runMonitor(app.db, monitorId, { now: T(hour) });
  dns.setRecords("shop.test.dbl.spamhaus.org", [{ type: "A", data: "127.0.1.2" }]);
  const run = await runMonitor(app.db, monitorId, { now: T(hour + 1) });
  expect(run.alerts.map((a) => [a.type, a.severity])).toEqual([["monitor.alert", "critical"]]);
  return run;
}

async function createMonitor(key: string, extra: Record<string, unknown> = {}) {
  const res = await api(app, key)("POST", "/v1/monitors", {
    name: "Shop",
    target: "shop.test",
    checks: ["blocklists"],
    interval: "1h",
    ...extra,
  });
  expect(res.status).toBe(200);
  return res.body;
}

describe("alert emails", () => {
  it("emails the workspace's owners, exactly, with subject, dashboard link and unsubscribe link", async () => {
    const ws = await workspaceWithPeople();
    const m = await createMonitor(ws.apiKey);
    expect(m.email_alerts).toEqual({ available: true, enabled: true, recipients: "owners", unsubscribed: [] });
    await alertOnce(m.id);
    // Queued with the alert, sent after its transaction.
    expect(smtp.received).toHaveLength(0);
    expect(await sendDueMonitorEmails(app.db)).toEqual({ sent: 2, retried: 0 });
    expect(smtp.received.map((r) => r.to).sort()).toEqual([[ws.people.owner1], [ws.people.owner2]]);
    const mail = smtp.received[0]!;
    expect(mail.from).toBe("alerts@service.test");
    // The state in the dashboard's words, never the stored fields.
    expect(mail.subject).toBe("[Critical] Blocklists on shop.test: listed on dbl.spamhaus.org");
    expect(mail.body).toContain(`http://localhost:3000/dashboard/monitors/${m.id}`);
    expect(mail.body).toContain("now: listed on dbl.spamhaus.org");
    expect(mail.body).toContain("before: not listed");
    expect(mail.body).not.toContain("listed_on");
    const link = mail.headers["list-unsubscribe"]!.replace(/^<|>$/g, "");
    expect(link).toMatch(/^http:\/\/localhost:3000\/v1\/monitors\/emails\/unsubscribe\?token=/);
    expect(mail.body).toContain(link);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    // Sent once: nothing is due any more.
    expect(await sendDueMonitorEmails(app.db)).toEqual({ sent: 0, retried: 0 });
    expect(smtp.received).toHaveLength(2);
  });

  it("emails the chosen members only, and refuses a recipient who is not a member with 400 naming it", async () => {
    const ws = await workspaceWithPeople();
    const bad = await api(app, ws.apiKey)("POST", "/v1/monitors", {
      target: "shop.test",
      checks: ["blocklists"],
      email_alerts: { recipients: [ws.people.member, "stranger@elsewhere.test"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_REQUEST");
    expect(bad.body.error.message).toContain("stranger@elsewhere.test is not a member of this workspace");
    const m = await createMonitor(ws.apiKey, { email_alerts: { recipients: [ws.people.member.toUpperCase()] } });
    expect(m.email_alerts).toMatchObject({ enabled: true, recipients: [ws.people.member] });
    await alertOnce(m.id);
    await sendDueMonitorEmails(app.db);
    expect(smtp.received.map((r) => r.to)).toEqual([[ws.people.member]]);
  });

  it("sends nothing when disabled on the monitor, or when SERVICE_SMTP_URL is unset", async () => {
    const ws = await workspaceWithPeople();
    const off = await createMonitor(ws.apiKey, { email_alerts: { enabled: false } });
    expect(off.email_alerts).toMatchObject({ enabled: false, recipients: "owners" });
    await alertOnce(off.id);
    expect(await app.db.monitorEmail.count({ where: { monitorId: off.id } })).toBe(0);

    delete process.env.SERVICE_SMTP_URL;
    const on = await createMonitor(ws.apiKey);
    expect(on.email_alerts).toMatchObject({ available: false, enabled: true });
    await alertOnce(on.id);
    expect(await app.db.monitorEmail.count({ where: { monitorId: on.id } })).toBe(0);
    expect(await sendDueMonitorEmails(app.db)).toEqual({ sent: 0, retried: 0 });
    expect(smtp.received).toHaveLength(0);
  });

  it("retries a send the SMTP server refused, later, and delivers it once", async () => {
    const ws = await workspaceWithPeople();
    const m = await createMonitor(ws.apiKey, { email_alerts: { recipients: [ws.people.owner1] } });
    await alertOnce(m.id);
    smtp.refuseNext(1);
    const now = new Date();
    expect(await sendDueMonitorEmails(app.db, now)).toEqual({ sent: 0, retried: 1 });
    const row = await app.db.monitorEmail.findFirstOrThrow({ where: { monitorId: m.id } });
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row.lastError).toMatch(/451/);
    // Not before its backoff.
    expect(await sendDueMonitorEmails(app.db, new Date(now.getTime() + 30_000))).toEqual({ sent: 0, retried: 0 });
    expect(await sendDueMonitorEmails(app.db, new Date(now.getTime() + 61_000))).toEqual({ sent: 1, retried: 0 });
    expect(smtp.received.map((r) => r.to)).toEqual([[ws.people.owner1]]);
    expect(await app.db.monitorEmail.findFirstOrThrow({ where: { monitorId: m.id } })).toMatchObject({
      status: "sent",
      attempts: 2,
    });
  });

  it("sends nothing queued for a monitor deleted before the send", async () => {
    const ws = await workspaceWithPeople();
    const m = await createMonitor(ws.apiKey);
    await alertOnce(m.id);
    expect(await app.db.monitorEmail.count({ where: { monitorId: m.id, status: "pending" } })).toBe(2);
    expect((await api(app, ws.apiKey)("DELETE", `/v1/monitors/${m.id}`)).status).toBe(200);
    expect(await app.db.monitorEmail.count({ where: { monitorId: m.id } })).toBe(0);
    expect(await sendDueMonitorEmails(app.db)).toEqual({ sent: 0, retried: 0 });
    expect(smtp.received).toHaveLength(0);
  });

  it("unsubscribe stops that recipient for that monitor only; twice is fine; a tampered token is 400", async () => {
    const ws = await workspaceWithPeople();
    const m1 = await createMonitor(ws.apiKey);
    const m2 = await createMonitor(ws.apiKey, { name: "Other" });
    await alertOnce(m1.id);
    await sendDueMonitorEmails(app.db);
    const toOwner1 = smtp.received.find((r) => r.to[0] === ws.people.owner1)!;
    const link = new URL(toOwner1.headers["list-unsubscribe"]!.replace(/^<|>$/g, ""));
    const path = `${link.pathname}${link.search}`;

    const tampered = path.replace(/token=([A-Za-z0-9_-])/, (_, c: string) => `token=${c === "A" ? "B" : "A"}`);
    const bad = await app.request("GET", tampered);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_REQUEST");

    const first = await app.request("GET", path);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ monitor_id: m1.id, email: ws.people.owner1, unsubscribed: true });
    // RFC 8058 one-click: the mail client POSTs to the same link.
    const again = await app.request("POST", path, {
      body: "List-Unsubscribe=One-Click",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(again.status).toBe(200);
    const read = (await api(app, ws.apiKey)("GET", `/v1/monitors/${m1.id}`)).body;
    expect(read.email_alerts.unsubscribed).toEqual([ws.people.owner1]);
    const audits = await app.db.event.findMany({
      where: { workspaceId: ws.workspaceId, type: "audit.monitor.unsubscribed" },
    });
    expect(audits).toHaveLength(1);

    smtp.received.length = 0;
    await alertOnce(m1.id, 5);
    await alertOnce(m2.id, 5);
    await sendDueMonitorEmails(app.db);
    // m1 resolved (the listing cleared for the baseline) and alerted again: to owner2 only; m2's alert to both.
    const sent = async (monitorId: string, recipient: string) =>
      app.db.monitorEmail.count({ where: { monitorId, recipient, status: "sent" } });
    expect(await sent(m1.id, ws.people.owner1)).toBe(1);
    expect(await sent(m1.id, ws.people.owner2)).toBe(3);
    expect(await sent(m2.id, ws.people.owner1)).toBe(1);
    expect(await sent(m2.id, ws.people.owner2)).toBe(1);
    expect(smtp.received.filter((r) => r.to[0] === ws.people.owner1).map((r) => r.body)).toEqual([
      expect.stringContaining(`/dashboard/monitors/${m2.id}`),
    ]);
    expect(smtp.received.some((r) => r.subject === "[Resolved] Blocklists on shop.test: resolved")).toBe(true);
  });
});

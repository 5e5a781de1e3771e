// An address's velocity counts come from its counters (server/assessment/velocity.ts: its minutes and the pairs it
// was seen with, kept by the assessment's write), so that a busy address costs a few rows instead of its whole week.
// They must say exactly what counting its events says, also at each window's edge, which falls inside a minute;
// the assessment's write must keep them as the migration's backfill counts them; and they are purged once older
// than every window.
import { beforeAll, describe, expect, it } from "vitest";
import { CHROME_UA } from "./setup";
import { createTestApp, type TestApp } from "../harness";
import { velocitySignals } from "../../server/assessment/velocity";
import { velocityWindowMinutes } from "../../server/assessment/config";
import { purgeVelocityCounters } from "../../server/maintenance/purge";
import { countSeededEvents } from "./seeded-events";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const MIN = 60_000;
const IP = "203.0.113.50";

interface Seeded {
  at: number;
  email?: string;
  subject?: string;
  failed?: boolean;
}

async function seed(workspaceId: string, events: Seeded[]) {
  await app.db.$executeRawUnsafe(
    `INSERT INTO "Event" ("id", "workspaceId", "requestId", "type", "ip", "email", "emailNormalized", "subject", "failed", "data", "createdAt")
     SELECT 'ev_' || $1 || '_' || e."i", $1, 'req_' || e."i", 'assessment', $2, e."email", e."email", e."subject",
            coalesce(e."failed", false), '{}'::jsonb, e."at"::timestamp(3)
     FROM jsonb_to_recordset($3::jsonb) AS e("i" int, "email" text, "subject" text, "failed" boolean, "at" text)`,
    workspaceId,
    IP,
    JSON.stringify(events.map((e, i) => ({ ...e, i, at: new Date(e.at).toISOString().replace("Z", "") }))),
  );
}

/** The address's counts as counting its events gives them (the velocity statement's columns before the counters). */
function expected(events: Seeded[], now: number, email: string, subject: string) {
  const windows = { sig: velocityWindowMinutes() * MIN, "1h": 60 * MIN, "24h": 1440 * MIN, "7d": 7 * 1440 * MIN };
  const out: Record<string, number> = {};
  for (const [w, ms] of Object.entries(windows)) {
    const inside = events.filter((e) => e.at >= now - ms);
    out[`ip_${w}`] = inside.length;
    if (w === "sig") continue;
    out[`ip_emails_${w}`] = new Set(inside.filter((e) => e.email && e.email !== email).map((e) => e.email)).size;
  }
  const hour = events.filter((e) => e.at >= now - 60 * MIN && e.failed);
  out.ip_failed_1h = hour.length;
  out.ip_failed_users_1h = new Set(hour.filter((e) => e.subject && e.subject !== subject).map((e) => e.subject)).size;
  return out;
}

const ipColumns = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row)
      .filter(([k]) => /^ip_(sig|1h|24h|7d|emails_\w+|failed_1h|failed_users_1h)$/.test(k))
      .map(([k, v]) => [k, Number(v)]),
  );

describe("an address's velocity counters", () => {
  // The signal window (SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES, 60 by default, the same as the hour) set apart from
  // the other windows: a part of a minute, and longer than the week.
  it.each([10.5, 14 * 1440])(
    "count exactly what its events count, on both sides of every window's edge (signal window %s minutes)",
    async (signalMinutes) => {
      const before = process.env.SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES;
      process.env.SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES = String(signalMinutes);
      try {
        const ws = await app.seedWorkspace();
        // Now is inside a minute, so every window's edge is too: 23.456 s into it.
        const now = Math.floor(Date.now() / MIN) * MIN - MIN + 23_456;
        const events: Seeded[] = [];
        for (const [i, ms] of [signalMinutes, 60, 1440, 7 * 1440].map((m) => m * MIN).entries()) {
          const edge = now - ms;
          const nextMinute = Math.ceil(edge / MIN) * MIN;
          events.push(
            { at: edge - MIN - 1 }, // a minute before: out
            { at: edge - 1, email: `out-${i}@example.com`, subject: `user:out-${i}`, failed: true }, // just out
            { at: edge, email: `in-${i}@example.com` }, // the edge itself: in
            { at: edge + 1, subject: `user:in-${i}`, failed: true },
            { at: nextMinute - 1, email: `in-${i}@example.com`, failed: true }, // the rest of the edge's minute
            { at: nextMinute, subject: `user:in-${i}`, failed: true }, // the next whole minute
            { at: nextMinute + 30_000, email: "me@example.com", subject: "user:me", failed: true },
          );
        }
        events.push({ at: now - 1000, email: "recent@example.com", subject: "user:recent", failed: true });
        await seed(ws.workspaceId, events);
        await countSeededEvents(app.db, ws.workspaceId);

        const read = await velocitySignals(app.db, {
          workspaceId: ws.workspaceId,
          ip: IP,
          email: "me@example.com",
          deviceId: null,
          subject: "user:me",
          now: new Date(now),
        });
        const want = expected(events, now, "me@example.com", "user:me");
        expect(ipColumns(read.row)).toEqual(want);
        // The scene tells the windows apart (a count that ignored an edge, or took one window for another, differs).
        expect(new Set([want.ip_sig, want.ip_1h, want.ip_24h, want.ip_7d]).size).toBe(4);
        expect(want.ip_failed_users_1h).toBeGreaterThan(0);
      } finally {
        if (before === undefined) delete process.env.SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES;
        else process.env.SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES = before;
      }
    },
  );

  it("are kept by each assessment's write as the migration counts them from the events", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    // Concurrent assessments (written together, several of one address in one statement), some failed, some with an
    // email.
    const bodies = Array.from({ length: 24 }, (_, i) => ({
      event: "login",
      ip: i % 3 === 0 ? "198.51.100.9" : IP,
      user_agent: CHROME_UA,
      user_id: `u-${i % 5}`,
      ...(i % 4 === 0 ? { email: `user-${i % 6}@example.com` } : {}),
      ...(i % 2 === 0 ? { status: "failed" } : {}),
    }));
    const answers = await Promise.all(
      bodies.map((body) => app.request("POST", "/v1/assess", { key: ws.apiKey, body })),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);

    const counters = async () => ({
      minutes: await app.db.$queryRawUnsafe<Record<string, unknown>[]>(
        `SELECT "key", "minute", "count", "failed" FROM "VelocityCount" WHERE "workspaceId" = $1 ORDER BY 1, 2`,
        ws.workspaceId,
      ),
      // A pair's time is kept to the minute (server/assessment/record.ts): a pair seen again in the minute of its
      // stored time is not rewritten, so the write may keep an earlier time of that minute than the events' latest.
      pairs: await app.db.$queryRawUnsafe<Record<string, unknown>[]>(
        `SELECT "key", "other", date_trunc('minute', "lastAt") AS "minute" FROM "VelocityPair" WHERE "workspaceId" = $1
          ORDER BY 1, 2`,
        ws.workspaceId,
      ),
    });
    const written = await counters();
    const total = written.minutes.reduce((n, r) => n + Number(r.count), 0);
    expect(total).toBe(bodies.length);
    expect(written.pairs.map((p) => p.other)).toEqual(
      expect.arrayContaining(["email:user-0@example.com", "failed:user:u-0"]),
    );
    await countSeededEvents(app.db, ws.workspaceId);
    expect(await counters()).toEqual(written);

    // And the next assessment of the address reads them: every earlier one of the hour.
    const next = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: IP, user_agent: CHROME_UA, user_id: "u-9", status: "failed" },
    });
    expect(next.status).toBe(200);
    const failedHere = bodies.filter((b) => b.ip === IP && b.status === "failed");
    expect(next.body.account?.failed_logins_1h).toBe(1);
    const stuffing = next.body.signals.find((s: { code: string }) => s.code === "ip_credential_stuffing");
    const users = new Set(failedHere.map((b) => b.user_id)).size + 1;
    expect(stuffing?.reason).toContain(`${users} different accounts failed to log in from ${IP}`);
  });

  it("keep a pair's time to the minute: seen again in its minute it is left as it is, in a later minute moved on", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    // Clear of a minute's end, so the assessment falls in the minute the pairs are set up in.
    while (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 500));
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const before = new Date(minute.getTime() - 1);
    const pair = (other: string, lastAt: Date) => ({ workspaceId: ws.workspaceId, key: `ip:${IP}`, other, lastAt });
    await app.db.velocityPair.createMany({
      data: [pair("email:same@example.com", minute), pair("account:email:same@example.com", before)],
    });
    const answer = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: IP, user_agent: CHROME_UA, email: "same@example.com" },
    });
    expect(answer.status).toBe(200);
    const pairs = await app.db.velocityPair.findMany({
      where: { workspaceId: ws.workspaceId, key: `ip:${IP}` },
      orderBy: { other: "asc" },
    });
    const at = Object.fromEntries(pairs.map((p) => [p.other, p.lastAt.getTime()]));
    // Stored in this minute already: not rewritten.
    expect(at["email:same@example.com"]).toBe(minute.getTime());
    // Stored in the minute before: moved on to the assessment's time.
    expect(at["account:email:same@example.com"]).toBeGreaterThanOrEqual(minute.getTime());
    expect(at["account:email:same@example.com"]).toBeLessThanOrEqual(Date.now());
  });

  it("keep a pair's latest time when an instance with a slower clock writes after one with a faster clock", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const ahead = new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000);
    await app.db.velocityPair.create({
      data: { workspaceId: ws.workspaceId, key: `ip:${IP}`, other: "email:skew@example.com", lastAt: ahead },
    });
    const answer = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: IP, user_agent: CHROME_UA, email: "skew@example.com" },
    });
    expect(answer.status).toBe(200);
    // The address's pairs (the account's links to its mailbox are pairs of their own keys: identity-keys.ts).
    const pairs = await app.db.velocityPair.findMany({
      where: { workspaceId: ws.workspaceId, key: `ip:${IP}` },
      orderBy: { other: "asc" },
    });
    // The write touched the row (the event's counter is there) and kept the later time.
    expect(await app.db.velocityCount.count({ where: { workspaceId: ws.workspaceId, key: `ip:${IP}` } })).toBe(1);
    // (Besides the account's pair, which shared egress counts, written at the assessment's time.)
    expect(pairs.map((p) => [p.other, p.lastAt.toISOString()])).toEqual([
      ["account:email:skew@example.com", expect.any(String)],
      ["email:skew@example.com", ahead.toISOString()],
    ]);
  });

  it("are purged with the shortest event retention (90 days) or the signal window if longer, and a day to spare", async () => {
    const ws = await app.seedWorkspace();
    const now = new Date("2026-11-22T12:00:00Z");
    const daysAgo = (d: number) => new Date(now.getTime() - d * 1440 * MIN);
    await app.db.velocityCount.createMany({
      data: [120, 92, 89, 0].map((d) => ({
        workspaceId: ws.workspaceId,
        key: `ip:${IP}`,
        minute: daysAgo(d),
        count: 1,
        failed: 0,
      })),
    });
    await app.db.velocityPair.createMany({
      data: [92, 0].map((d) => ({
        workspaceId: ws.workspaceId,
        key: `ip:${IP}`,
        other: `email:${d}@x.test`,
        lastAt: daysAgo(d),
      })),
    });
    const minutesLeft = async () =>
      (await app.db.velocityCount.findMany({ where: { workspaceId: ws.workspaceId }, orderBy: { minute: "asc" } })).map(
        (r) => r.minute,
      );
    // A signal window of 100 days keeps 101 days.
    process.env.SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES = String(100 * 1440);
    try {
      expect(await purgeVelocityCounters(app.db, now)).toBe(1);
    } finally {
      delete process.env.SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES;
    }
    expect(await minutesLeft()).toEqual([daysAgo(92), daysAgo(89), daysAgo(0)]);
    // The default keeps 91 days.
    expect(await purgeVelocityCounters(app.db, now)).toBe(2);
    expect(await minutesLeft()).toEqual([daysAgo(89), daysAgo(0)]);
    const pairs = await app.db.velocityPair.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(pairs.map((p) => p.other)).toEqual(["email:0@x.test"]);
  });
});

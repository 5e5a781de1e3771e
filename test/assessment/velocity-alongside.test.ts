// POST /assess reads its velocity counts in the reservation's statement (its procedure's readAlongside;
// server/quota/reserve.ts ReadAlongside, server/assessment/assess.ts velocityAlongside): one round trip for both.
// Its row must be the velocity statement's own, column for column, for requests of one group with different keys; a
// refused reservation brings no read back and writes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { velocityAlongside } from "../../server/assessment/assess";
import { velocitySignals } from "../../server/assessment/velocity";
import { enabledRulesSql } from "../../server/rules/rules";
import { versionTokenSql } from "../../server/lists/lookup";
import { HIGH_RISK_ASSESSMENT, subscribedSql } from "../../server/webhooks/enqueue";
import { newId } from "../../server/ids";
import { reserveUnitsGrouped } from "../../server/quota/grouped-reserve";
import type { AssessRequest } from "../../server/assessment/schemas";
import { carriesReadAlongside as carriesVelocityRead } from "../../server/api/ladder";
import { adjustUsage } from "../../server/quota/adjust";
import { parseIpStrict } from "../../server/net/ip";
import { countingInsertStatements } from "../insert-statements";
import { countSeededEvents } from "./seeded-events";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});

/** The workspace's history: anna's logins from two countries and devices, failures from one address, other users. */
async function seedHistory(workspaceId: string) {
  await app.db.$executeRawUnsafe(
    `INSERT INTO "Event" ("id", "workspaceId", "requestId", "type", "ip", "email", "emailNormalized", "subject", "device",
       "kind", "failed", "country", "asn", "latitude", "longitude", "hidesLocation", "data", "createdAt")
     SELECT 'ev_' || $1 || '_' || g, $1, 'req_' || g, 'assessment',
            CASE WHEN g % 3 = 0 THEN '203.0.113.7' ELSE '198.51.100.' || g END,
            CASE WHEN g % 4 = 0 THEN 'anna@example.com' END, CASE WHEN g % 4 = 0 THEN 'anna@example.com' END,
            CASE WHEN g % 2 = 0 THEN 'user:anna' ELSE 'user:other-' || g END,
            CASE WHEN g % 5 = 0 THEN 'laptop' ELSE 'phone-' || g END,
            CASE WHEN g % 6 = 0 THEN 'signup' ELSE 'login' END, g % 7 = 0,
            CASE WHEN g % 2 = 0 THEN 'DE' ELSE 'FR' END, CASE WHEN g % 3 = 0 THEN '3320' ELSE '16276' END,
            50.1 + g / 100.0, 8.6, g % 11 = 0, '{}'::jsonb, now() - make_interval(mins => g * 37)
     FROM generate_series(1, 120) g`,
    workspaceId,
  );
  await app.db.$executeRawUnsafe(
    `INSERT INTO "Rule" ("id", "workspaceId", "name", "action", "mode", "expression", "priority", "enabled", "createdAt", "updatedAt")
     VALUES ('rule_' || $1, $1, 'Partners', 'allow', 'active', 'ip.address == "192.0.2.1"', 0, true, now(), now())`,
    workspaceId,
  );
  await countSeededEvents(app.db, workspaceId);
}

const requests: AssessRequest[] = [
  { event: "login", ip: "203.0.113.7", user_id: "anna", device_id: "laptop", email: "Anna@Example.com" },
  { event: "login", ip: "198.51.100.4", user_id: "anna", device_id: "phone-4" },
  { event: "checkout", ip: "192.0.2.200" },
  // Spelled as nobody stores it: both reads count by the canonical address.
  { event: "signup", ip: "2001:0db8:0:0::1", email: "new@example.org" },
] as AssessRequest[];

/** Counts come back as bigints' text from one driver and JSON numbers from the other: compared as numbers. */
const same = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v]),
  );

describe("the velocity read beside the reservation", () => {
  it("gives each request of a group the velocity statement's own row, rules and lists", async () => {
    const ws = await app.seedWorkspace();
    await seedHistory(ws.workspaceId);
    // A webhook that takes high-risk notifications: the read says so beside the counts (assess.ts ALSO_READ).
    await app.db.webhook.create({
      data: {
        id: newId("wh"),
        workspaceId: ws.workspaceId,
        name: "risk",
        url: "https://hooks.example.test/risk",
        eventTypes: [HIGH_RISK_ASSESSMENT],
        secret: "whsec_test",
      },
    });
    const along = requests.map((r) => velocityAlongside(ws.workspaceId, r));
    const states = await Promise.all(
      along.map((a, i) =>
        reserveUnitsGrouped(app.db, {
          workspaceId: ws.workspaceId,
          units: 1,
          limit: 1000,
          requestId: `req_along_${i}`,
          endpoint: "assess",
          read: a.read,
        }),
      ),
    );
    for (const [i, request] of requests.entries()) {
      const q = states[i];
      if (!q || q === "stale" || !q.read) throw new Error(`request ${i}: no read came back`);
      const pre = along[i]!.velocity(q.read);
      const email = request.email?.trim().toLowerCase() ?? null;
      const direct = await velocitySignals(
        app.db,
        {
          workspaceId: ws.workspaceId,
          ip: parseIpStrict(request.ip)?.address ?? request.ip,
          email,
          deviceId: request.device_id ?? null,
          userId: request.user_id ?? null,
          subject: request.user_id ? `user:${request.user_id}` : email ? `email:${email}` : null,
          now: new Date(pre.now),
        },
        {
          rules: enabledRulesSql("$1"),
          lists: versionTokenSql("$1"),
          notified: subscribedSql("$1", HIGH_RISK_ASSESSMENT),
        },
      );
      const { rules: _r, lists: _l, notified: _n, ...counts } = direct.row;
      expect(same(pre.row)).toEqual(same(counts));
      expect(pre.also).toEqual(direct.also);
      expect(pre.also.notified).toBe(true);
    }
    // The history is really read (not a row of zeros): anna's events through her address, account and device.
    const anna = states[0] as { read: { row: Record<string, unknown> } };
    expect(Number(anna.read.row.ip_7d)).toBeGreaterThan(0);
    expect(Number(anna.read.row.acct_30d)).toBeGreaterThan(0);
    expect(anna.read.row.acct_countries).toEqual(["DE"]);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(requests.length);
  });

  it("brings nothing back and writes nothing when the allowance is spent", async () => {
    const ws = await app.seedWorkspace({ usedUnits: 1000 });
    const a = velocityAlongside(ws.workspaceId, requests[0]!);
    const q = await reserveUnitsGrouped(app.db, {
      workspaceId: ws.workspaceId,
      units: 1,
      limit: 1000,
      requestId: "req_refused",
      endpoint: "assess",
      read: a.read,
    });
    expect(q).toBeNull();
    expect(await app.used(ws.workspaceId)).toBe(1000);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
  });

  it("leaves the read out for a while after the allowance ran out, and counts alike without it", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const login = { event: "login", ip: "198.51.100.77", user_id: "zoe", user_agent: "Mozilla/5.0" };
    const call = () => app.request("POST", "/v1/assess", { key: ws.apiKey, body: login });
    /** The address's count in the last hour as the newest stored assessment's rules saw it. */
    const ipCount = async () =>
      Number(
        (
          await app.db.$queryRawUnsafe<{ n: string }[]>(
            `SELECT "data"->'facts'->>'velocity.ip_1h' AS n FROM "Event" WHERE "workspaceId" = $1 AND "type" = 'assessment' ORDER BY "createdAt" DESC, "id" DESC LIMIT 1`,
            ws.workspaceId,
          )
        )[0]!.n,
      );
    const first = await call();
    expect(first.status).toBe(200);
    const limit = Number(first.headers.get("x-service-quota-limit"));
    await adjustUsage(app.db, { workspaceId: ws.workspaceId, units: limit - 1, reason: "test: spend the month" });

    expect((await call()).status).toBe(402);
    // A caller that keeps calling past its allowance costs refused reservations, not reads thrown away.
    expect(carriesVelocityRead(ws.workspaceId)).toBe(false);
    expect(carriesVelocityRead(ws.workspaceId, Date.now() + 60_000)).toBe(true);

    await adjustUsage(app.db, { workspaceId: ws.workspaceId, units: -limit, reason: "test: give the month back" });
    // Granted again without the read alongside: the assessment reads its own, and counts the first one.
    expect((await call()).status).toBe(200);
    expect(await ipCount()).toBe(1);
    expect(carriesVelocityRead(ws.workspaceId)).toBe(true);
    // And the next carries it again, counting both.
    expect((await call()).status).toBe(200);
    expect(await ipCount()).toBe(2);
  });

  it("keeps the workspace's other reservations out of the reads' lane", async () => {
    const ws = await app.seedWorkspace();
    const reserve = (i: number, read: boolean) =>
      reserveUnitsGrouped(app.db, {
        workspaceId: ws.workspaceId,
        units: 1,
        limit: 1000,
        requestId: `req_lane_${i}`,
        endpoint: read ? "assess" : "ip",
        ...(read ? { read: velocityAlongside(ws.workspaceId, requests[0]!).read } : {}),
      });
    // An assessment's read and two lookups in the same turn: the read goes in its lane, the two lookups together in
    // theirs (two statements). In one lane the three would have gone as one statement.
    const { statements, result: states } = await countingInsertStatements(app.db, "UsagePeriod", () =>
      Promise.all([reserve(0, true), reserve(1, false), reserve(2, false)]),
    );
    expect(states.map((q) => q !== null && q !== "stale" && q.read !== undefined)).toEqual([true, false, false]);
    expect(statements).toBe(2);
    expect(await app.used(ws.workspaceId)).toBe(3);
  });
});

// GET /v1/analytics/timeseries and the dashboard's tRPC endpoint's analyticsTimeseries, against a real database: usage,
// assessments, bulk items and webhook deliveries seeded on known UTC days, across two keys and the dashboard.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_RANGE_DAYS, resolveRange } from "../../server/analytics/range";
import { recordEvent } from "../../server/events/events";
import { newId } from "../../server/ids";
import { createApiKey } from "../../server/keys/keys";
import { periodStart } from "../../server/quota/period";
import { call, ownerAndMember } from "../dashboard/call";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const DAY = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
/** Noon UTC `ago` days before today. */
const noon = (ago: number) => new Date(Date.parse(`${today()}T12:00:00Z`) - ago * DAY);
const dateOf = (ago: number) => noon(ago).toISOString().slice(0, 10);

/** A ledger row paid by `apiKeyId`, or with null by the dashboard (a member: the row has a user and no key). */
async function ledger(workspaceId: string, at: Date, endpoint: string, units: number, apiKeyId: string | null) {
  await app.db.usageLedger.create({
    data: {
      id: newId("led"),
      workspaceId,
      periodStart: periodStart(at),
      requestId: newId("req"),
      apiKeyId,
      userId: apiKeyId ? null : "usr_member",
      endpoint,
      units,
      createdAt: at,
    },
  });
}

async function assessment(workspaceId: string, at: Date, data: Record<string, unknown>) {
  await recordEvent(app.db, { workspaceId, requestId: newId("req"), type: "assessment", data });
  const e = await app.db.event.findFirstOrThrow({ where: { workspaceId }, orderBy: { createdAt: "desc" } });
  await app.db.event.update({ where: { id: e.id }, data: { createdAt: at } });
}

/**
 * Two days ago: key A 3 units of ip.geo (2 requests), key B 1 unit of email.check; yesterday: the dashboard 2 units
 * of ip.geo and a refund of 1 from key A; today: key A 1 unit of domain.lookup. Assessments: two days ago one high
 * block (tor_exit, rule r1) and one low allow; today one critical block (tor_exit and vpn, r1 and shadow r2).
 */
async function seedWorkspace() {
  const ws = await app.seedWorkspace({ plans: ["suite_business"] });
  const b = await createApiKey(app.db, { workspaceId: ws.workspaceId, name: "Key B" });
  await ledger(ws.workspaceId, noon(2), "ip.geo", 2, ws.apiKeyId);
  await ledger(ws.workspaceId, noon(2), "ip.geo", 1, ws.apiKeyId);
  await ledger(ws.workspaceId, noon(2), "email.check", 1, b.key.id);
  await ledger(ws.workspaceId, noon(1), "ip.geo", 2, null);
  await ledger(ws.workspaceId, noon(1), "ip.geo", -1, ws.apiKeyId);
  await ledger(ws.workspaceId, new Date(), "domain.lookup", 1, ws.apiKeyId);
  const r1 = await app.db.rule.create({
    data: {
      id: newId("rule"),
      workspaceId: ws.workspaceId,
      name: "Block Tor",
      action: "block",
      priority: 1,
      conditions: [],
    },
  });
  const r2 = await app.db.rule.create({
    data: {
      id: newId("rule"),
      workspaceId: ws.workspaceId,
      name: "Review VPN",
      action: "review",
      priority: 2,
      mode: "shadow",
      conditions: [],
    },
  });
  await assessment(ws.workspaceId, noon(2), {
    risk_level: "high",
    decision: "block",
    signals: [{ code: "tor_exit" }],
    rules: [r1.id],
  });
  await assessment(ws.workspaceId, noon(2), { risk_level: "low", decision: "allow", signals: [] });
  await assessment(ws.workspaceId, new Date(), {
    risk_level: "critical",
    decision: "block",
    signals: [{ code: "tor_exit" }, { code: "vpn" }],
    rules: [r1.id],
    shadow_rules: [{ id: r2.id, action: "review" }],
  });
  return { ...ws, keyB: b.key.id, r1: r1.id, r2: r2.id };
}

async function seedFailures(workspaceId: string) {
  const job = await app.db.bulkJob.create({
    data: {
      id: newId("job"),
      workspaceId,
      requestId: newId("req"),
      kind: "ip",
      status: "completed",
      createdBy: "test",
      total: 3,
      unitsReserved: 3,
      periodStart: periodStart(noon(1)),
      expiresAt: new Date(Date.now() + 30 * DAY),
    },
  });
  for (const [position, status] of [
    [1, "succeeded"],
    [2, "failed"],
    [3, "cancelled"],
  ] as const) {
    await app.db.bulkItem.create({
      data: {
        id: newId("item"),
        jobId: job.id,
        position,
        target: `203.0.113.${position}`,
        kind: "ip",
        units: 1,
        status,
        finishedAt: noon(1),
      },
    });
  }
  const hook = await app.db.webhook.create({
    data: {
      id: newId("wh"),
      workspaceId,
      name: "hook",
      url: "https://example.com/h",
      secret: "s",
      eventTypes: ["assessment"],
    },
  });
  for (const status of ["delivered", "failed", "pending"]) {
    await app.db.webhookDelivery.create({
      data: {
        id: newId("whd"),
        webhookId: hook.id,
        workspaceId,
        eventType: "assessment",
        requestId: newId("req"),
        payload: {},
        status,
        createdAt: noon(1),
      },
    });
  }
}

describe("GET /v1/analytics/timeseries", () => {
  it("gives units per day by endpoint and by key, assessments per day by risk and decision, top signals and rules", async () => {
    const ws = await seedWorkspace();
    const res = await app.request("GET", "/v1/analytics/timeseries?days=3", { key: ws.apiKey });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.daily.map((d: any) => d.date)).toEqual([dateOf(2), dateOf(1), dateOf(0)]);
    const [d2, d1, d0] = body.daily;
    expect(d2).toMatchObject({
      requests: 3,
      units: 4,
      unitsByEndpoint: { "ip.geo": 3, "email.check": 1 },
      unitsByKey: { [ws.apiKeyId]: 3, [ws.keyB]: 1 },
      assessments: 2,
    });
    expect(d2.riskLevels).toEqual({ low: 1, medium: 0, high: 1, critical: 0 });
    expect(d2.decisions).toEqual({ allow: 1, review: 0, challenge: 0, block: 1 });
    // The refund lowers its day's units and is not a request.
    expect(d1).toMatchObject({
      requests: 1,
      units: 1,
      unitsByEndpoint: { "ip.geo": 1 },
      unitsByKey: { dashboard: 2, [ws.apiKeyId]: -1 },
      assessments: 0,
    });
    expect(d0).toMatchObject({
      requests: 1,
      units: 1,
      unitsByEndpoint: { "domain.lookup": 1 },
      assessments: 1,
      riskLevels: { low: 0, medium: 0, high: 0, critical: 1 },
    });
    expect(body.totals).toMatchObject({ requests: 5, units: 6, assessments: 3 });
    expect(body.endpoints).toEqual([
      { endpoint: "ip.geo", requests: 3, units: 4 },
      { endpoint: "domain.lookup", requests: 1, units: 1 },
      { endpoint: "email.check", requests: 1, units: 1 },
    ]);
    expect(body.keys.map((k: any) => [k.key, k.units, k.requests])).toEqual([
      [ws.apiKeyId, 3, 3],
      ["dashboard", 2, 1],
      [ws.keyB, 1, 1],
    ]);
    expect(body.keys[1]).toMatchObject({ name: "Dashboard", prefix: null, status: null });
    expect(body.keys[2]).toMatchObject({ name: "Key B", status: "active" });
    expect(body.topSignals).toEqual([
      { signal: "tor_exit", count: 2 },
      { signal: "vpn", count: 1 },
    ]);
    expect(body.topRules).toEqual([
      { id: ws.r1, name: "Block Tor", mode: "active", matched: 2, shadowMatched: 0 },
      { id: ws.r2, name: "Review VPN", mode: "shadow", matched: 0, shadowMatched: 1 },
    ]);
    expect(res.headers.get("x-service-quota-used")).toBeNull();
  });

  it("gives failure rates per day from bulk items and webhook deliveries that finished", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    await seedFailures(ws.workspaceId);
    const res = await app.request("GET", "/v1/analytics/timeseries?days=2", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.daily[0].errors).toEqual({
      bulkItems: 2,
      bulkItemsFailed: 1,
      webhookDeliveries: 2,
      webhookDeliveriesFailed: 1,
      rate: 0.5,
    });
    expect(res.body.daily[1].errors).toEqual({
      bulkItems: 0,
      bulkItemsFailed: 0,
      webhookDeliveries: 0,
      webhookDeliveriesFailed: 0,
      rate: null,
    });
    expect(res.body.totals).toMatchObject({ bulkItems: 2, bulkItemsFailed: 1, rate: 0.5 });
  });

  it("bounds the range with since (inclusive) and until (exclusive)", async () => {
    const ws = await seedWorkspace();
    const res = await app.request("GET", `/v1/analytics/timeseries?since=${dateOf(2)}&until=${dateOf(1)}`, {
      key: ws.apiKey,
    });
    expect(res.status).toBe(200);
    expect(res.body.since).toBe(`${dateOf(2)}T00:00:00.000Z`);
    expect(res.body.daily.map((d: any) => [d.date, d.units, d.assessments])).toEqual([[dateOf(2), 4, 2]]);
    expect(res.body.totals).toMatchObject({ units: 4, assessments: 2 });
    expect(res.body.topSignals).toEqual([{ signal: "tor_exit", count: 1 }]);
  });

  it("never includes another workspace's usage, assessments, keys or rules", async () => {
    const mine = await app.seedWorkspace({ plans: ["suite_business"] });
    await seedWorkspace();
    const other = await seedWorkspace();
    await seedFailures(other.workspaceId);
    const res = await app.request("GET", "/v1/analytics/timeseries?days=30", { key: mine.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual({
      requests: 0,
      units: 0,
      assessments: 0,
      bulkItems: 0,
      bulkItemsFailed: 0,
      webhookDeliveries: 0,
      webhookDeliveriesFailed: 0,
      rate: null,
    });
    expect(res.body.daily).toHaveLength(30);
    expect(res.body.keys).toEqual([]);
    expect(res.body.topSignals).toEqual([]);
    expect(res.body.topRules).toEqual([]);
    expect(res.body.responses).toEqual({
      totals: { requests: 0, clientErrors: 0, serverErrors: 0, clientErrorRate: null, serverErrorRate: null },
      endpoints: [],
      topErrors: [],
    });
  });

  it.each([
    ["days=0"],
    ["days=367"],
    ["days=abc"],
    ["since=yesterday"],
    ["days=7&since=2026-01-01"],
    ["since=2026-02-01&until=2026-01-01"],
    ["since=2026-01-01&until=2026-01-01"],
    ["since=2024-01-01&until=2026-01-01"],
  ])("answers 400 INVALID_REQUEST for %s", async (qs) => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", `/v1/analytics/timeseries?${qs}`, { key: ws.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
  });

  // Found by fuzzing: since=1970-01-01&until=9999-12-31 listed all 2.9 million days before counting them, holding the
  // event loop 2.6 s (7.5 s through the dashboard's endpoint) for a 400; a batch of such calls held it for minutes.
  it("refuses the widest range (1970 to 9999) from its two ends, without listing its days", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/analytics/timeseries?since=1970-01-01&until=9999-12-31", {
      key: ws.apiKey,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: "INVALID_REQUEST",
      message: `The range covers at most ${MAX_RANGE_DAYS} days.`,
    });
    const dayNames = vi.spyOn(Date.prototype, "toISOString");
    expect(() =>
      resolveRange({ since: new Date("1970-01-01T00:00:00Z"), until: new Date("9999-12-31T00:00:00Z") }),
    ).toThrow(`The range covers at most ${MAX_RANGE_DAYS} days.`);
    expect(dayNames.mock.calls.length).toBeLessThanOrEqual(MAX_RANGE_DAYS + 1);
  });

  it("needs a key", async () => {
    expect((await app.request("GET", "/v1/analytics/timeseries")).status).toBe(401);
  });

  it("defaults to the last 30 UTC days, today included, on a Free workspace too", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/analytics/timeseries", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.daily).toHaveLength(30);
    expect(res.body.daily[29].date).toBe(today());
    expect(res.body.since).toBe(`${dateOf(29)}T00:00:00.000Z`);
  });
});

describe("analyticsTimeseries through the dashboard's tRPC endpoint", () => {
  it("gives a member (not owner) the same numbers as the API", async () => {
    const { member } = await ownerAndMember(app.db, "analytics", ["suite_business"]);
    await ledger(member.workspaceId, noon(1), "ip.geo", 2, null);
    await assessment(member.workspaceId, noon(1), {
      risk_level: "medium",
      decision: "review",
      signals: [{ code: "vpn" }],
    });
    const res = await call(member, "workspace.analyticsTimeseries", { days: 2 }, "query");
    expect(res.status).toBe(200);
    expect(res.data.daily[0]).toMatchObject({
      date: dateOf(1),
      units: 2,
      unitsByKey: { dashboard: 2 },
      assessments: 1,
      decisions: { allow: 0, review: 1, challenge: 0, block: 0 },
    });
    const key = await createApiKey(app.db, { workspaceId: member.workspaceId, name: "same numbers" });
    const api = await app.request("GET", "/v1/analytics/timeseries?days=2", { key: key.plaintext });
    const strip = (body: any) => ({
      ...body,
      until: null,
      responses: null,
      daily: body.daily.map(({ responses: _, ...d }: any) => d),
    });
    expect(strip(api.body)).toEqual(strip(res.data));
    // The error rates count requests, and the dashboard's read was one: the API's answer has it.
    expect(api.body.responses.totals.requests).toBe(res.data.responses.totals.requests + 1);
  });

  it("refuses a bad range with 400 and no raw detail", async () => {
    const { owner } = await ownerAndMember(app.db, "analytics-free", ["free"]);
    const res = await call(
      owner,
      "workspace.analyticsTimeseries",
      { since: "2026-02-01", until: "2026-01-01" },
      "query",
    );
    expect(res.status).toBe(400);
    expect(res.code).toBe("INVALID_REQUEST");
    expect(res.message).toBe("until must be after since");
  });
});

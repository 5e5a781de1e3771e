// The error rates of a workspace's own requests (`responses` of GET /v1/analytics/timeseries and the dashboard's
// analyticsTimeseries): real requests through the REST API and the dashboard's tRPC endpoint are counted per UTC day, per
// procedure and per status by the ladder's hook, written in batches as counters, and read back per workspace.
import { beforeAll, describe, expect, it } from "vitest";
import { flushRequestOutcomes, noteRequestOutcome } from "../../server/analytics/request-outcomes";
import { runRetentionPurge } from "../../server/maintenance/purge";
import { withLogLines } from "../log-lines";
import { call, ownerAndMember } from "../dashboard/call";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const DAY = 86_400_000;
const dateOf = (ago: number, from = new Date()) => new Date(from.getTime() - ago * DAY).toISOString().slice(0, 10);
const none = { requests: 0, clientErrors: 0, serverErrors: 0, clientErrorRate: null, serverErrorRate: null };

async function counters(workspaceId: string) {
  await flushRequestOutcomes();
  const rows = await app.db.requestOutcomeDaily.findMany({ where: { workspaceId } });
  return rows
    .map((r) => ({
      day: r.day.toISOString().slice(0, 10),
      procedure: r.procedure,
      apiKeyId: r.apiKeyId,
      status: r.status,
      count: r.count,
    }))
    .sort((a, b) => a.status - b.status || a.procedure.localeCompare(b.procedure));
}

describe("request outcomes through the REST API", () => {
  it("counts a 200, a 400, a 402 and a 404 per day, per endpoint and per status, as the next read shows", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"], usedUnits: 1000 });
    expect((await app.request("GET", "/v1/events", { key: ws.apiKey })).status).toBe(200);
    expect((await app.request("GET", "/v1/analytics/timeseries?days=0", { key: ws.apiKey })).status).toBe(400);
    expect(
      (await app.request("POST", "/v1/email/check", { key: ws.apiKey, body: { email: "a@example.com" } })).status,
    ).toBe(402);
    expect((await app.request("GET", "/v1/rules/rule_nope", { key: ws.apiKey })).status).toBe(404);
    // Refused before the caller is known: no workspace, not counted.
    expect((await app.request("GET", "/v1/events", { key: "sk_live_not_a_key" })).status).toBe(401);

    const res = await app.request("GET", "/v1/analytics/timeseries?days=3", { key: ws.apiKey });
    expect(res.status).toBe(200);
    const r = res.body.responses;
    expect(r.totals).toEqual({
      requests: 4,
      clientErrors: 3,
      serverErrors: 0,
      clientErrorRate: 0.75,
      serverErrorRate: 0,
    });
    expect(res.body.daily.map((d: any) => d.responses)).toEqual([none, none, r.totals]);
    expect(r.endpoints).toEqual([
      {
        endpoint: "email.emailCheck",
        requests: 1,
        clientErrors: 1,
        serverErrors: 0,
        clientErrorRate: 1,
        serverErrorRate: 0,
      },
      { endpoint: "rules.get", requests: 1, clientErrors: 1, serverErrors: 0, clientErrorRate: 1, serverErrorRate: 0 },
      {
        endpoint: "workspace.analyticsTimeseries",
        requests: 1,
        clientErrors: 1,
        serverErrors: 0,
        clientErrorRate: 1,
        serverErrorRate: 0,
      },
      {
        endpoint: "workspace.events",
        requests: 1,
        clientErrors: 0,
        serverErrors: 0,
        clientErrorRate: 0,
        serverErrorRate: 0,
      },
    ]);
    expect(r.topErrors).toEqual([
      { status: 400, code: "INVALID_REQUEST", requests: 1 },
      { status: 402, code: "QUOTA_EXCEEDED", requests: 1 },
      { status: 404, code: "NOT_FOUND", requests: 1 },
    ]);
    // The read itself is a request too: the next read counts it.
    const again = await app.request("GET", "/v1/analytics/timeseries?days=1", { key: ws.apiKey });
    expect(again.body.responses.totals).toMatchObject({ requests: 5, clientErrors: 3 });
    expect(await counters(ws.workspaceId)).toEqual([
      { day: dateOf(0), procedure: "workspace.analyticsTimeseries", apiKeyId: ws.apiKeyId, status: 200, count: 2 },
      { day: dateOf(0), procedure: "workspace.events", apiKeyId: ws.apiKeyId, status: 200, count: 1 },
      { day: dateOf(0), procedure: "workspace.analyticsTimeseries", apiKeyId: ws.apiKeyId, status: 400, count: 1 },
      { day: dateOf(0), procedure: "email.emailCheck", apiKeyId: ws.apiKeyId, status: 402, count: 1 },
      { day: dateOf(0), procedure: "rules.get", apiKeyId: ws.apiKeyId, status: 404, count: 1 },
    ]);
  });

  it("never shows another workspace's requests", async () => {
    const mine = await app.seedWorkspace({ plans: ["suite_business"] });
    const other = await app.seedWorkspace({ plans: ["suite_business"] });
    for (let i = 0; i < 3; i++) await app.request("GET", "/v1/rules/rule_nope", { key: other.apiKey });
    const res = await app.request("GET", "/v1/analytics/timeseries?days=2", { key: mine.apiKey });
    expect(res.body.responses).toEqual({ totals: none, endpoints: [], topErrors: [] });
    expect(res.body.daily.map((d: any) => d.responses)).toEqual([none, none]);
  });
});

describe("request outcomes through the dashboard's tRPC endpoint", () => {
  it("counts a member's 200, 400, 403 and 404 under the dashboard, in the member's workspace only", async () => {
    const { owner, member } = await ownerAndMember(app.db, "outcomes", ["suite_business"]);
    const elsewhere = await ownerAndMember(app.db, "outcomes-other", ["suite_business"]);
    expect((await call(member, "workspace.events", {}, "query")).status).toBe(200);
    expect(
      (await call(member, "workspace.analyticsTimeseries", { since: "2026-02-01", until: "2026-01-01" }, "query"))
        .status,
    ).toBe(400);
    expect((await call(member, "account.createKey", { name: "not mine to make" }, "mutation")).status).toBe(403);
    expect((await call(member, "rules.get", { id: "rule_nope" }, "query")).status).toBe(404);
    expect((await call(elsewhere.member, "rules.get", { id: "rule_nope" }, "query")).status).toBe(404);

    const res = await call(member, "workspace.analyticsTimeseries", { days: 1 }, "query");
    expect(res.status).toBe(200);
    expect(res.data.responses.totals).toEqual({
      requests: 4,
      clientErrors: 3,
      serverErrors: 0,
      clientErrorRate: 0.75,
      serverErrorRate: 0,
    });
    expect(res.data.responses.topErrors).toEqual([
      { status: 400, code: "INVALID_REQUEST", requests: 1 },
      { status: 403, code: "FORBIDDEN", requests: 1 },
      { status: 404, code: "NOT_FOUND", requests: 1 },
    ]);
    expect(res.data.responses.endpoints.map((e: any) => e.endpoint).sort()).toEqual([
      "account.createKey",
      "rules.get",
      "workspace.analyticsTimeseries",
      "workspace.events",
    ]);
    // The owner reads the same workspace's numbers (with the member's read now counted).
    const ownerView = await call(owner, "workspace.analyticsTimeseries", { days: 1 }, "query");
    expect(ownerView.data.responses.totals).toMatchObject({ requests: 5, clientErrors: 3 });
    expect((await counters(member.workspaceId)).every((c) => c.apiKeyId === "dashboard")).toBe(true);
    const theirs = await call(elsewhere.owner, "workspace.analyticsTimeseries", { days: 1 }, "query");
    expect(theirs.data.responses.totals).toMatchObject({ requests: 1, clientErrors: 1 });
  });
});

describe("the counters", () => {
  it("list every day of the range with zeros, and count whole UTC days", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const at = (ago: number) => new Date(Date.now() - ago * DAY);
    for (const status of [200, 200, 500, 503, 429])
      noteRequestOutcome(
        app.db,
        { workspaceId: ws.workspaceId, apiKeyId: ws.apiKeyId, procedure: "ip.lookup", status },
        at(3),
      );
    noteRequestOutcome(
      app.db,
      { workspaceId: ws.workspaceId, apiKeyId: null, procedure: "ip.lookup", status: 200 },
      at(1),
    );
    const res = await app.request("GET", "/v1/analytics/timeseries?days=4", { key: ws.apiKey });
    expect(res.body.daily.map((d: any) => [d.date, d.responses])).toEqual([
      [dateOf(3), { requests: 5, clientErrors: 1, serverErrors: 2, clientErrorRate: 0.2, serverErrorRate: 0.4 }],
      [dateOf(2), none],
      [dateOf(1), { requests: 1, clientErrors: 0, serverErrors: 0, clientErrorRate: 0, serverErrorRate: 0 }],
      [dateOf(0), none],
    ]);
    expect(res.body.responses.topErrors).toEqual([
      { status: 429, code: null, requests: 1 },
      { status: 500, code: null, requests: 1 },
      { status: 503, code: null, requests: 1 },
    ]);
    // A range from the middle of a day counts that whole day; one that ends before it leaves it out.
    const mid = `${dateOf(3)}T18:00:00Z`;
    const part = await app.request("GET", `/v1/analytics/timeseries?since=${mid}&until=${dateOf(2)}`, {
      key: ws.apiKey,
    });
    expect(part.body.responses.totals.requests).toBe(5);
    const before = await app.request("GET", `/v1/analytics/timeseries?since=${dateOf(5)}&until=${dateOf(3)}`, {
      key: ws.apiKey,
    });
    expect(before.body.responses.totals).toEqual(none);
  });

  it("add up across flushes: one counter row per key, its count the sum of every batch", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const note = () =>
      noteRequestOutcome(app.db, {
        workspaceId: ws.workspaceId,
        apiKeyId: ws.apiKeyId,
        procedure: "dns.lookup",
        status: 404,
      });
    for (let i = 0; i < 3; i++) note();
    await flushRequestOutcomes();
    for (let i = 0; i < 2; i++) note();
    // Two flushes started together both land.
    const first = flushRequestOutcomes();
    note();
    await Promise.all([first, flushRequestOutcomes()]);
    expect(await counters(ws.workspaceId)).toEqual([
      { day: dateOf(0), procedure: "dns.lookup", apiKeyId: ws.apiKeyId, status: 404, count: 6 },
    ]);
  });

  it("never throw into the request, even when the write fails", async () => {
    // A status beyond the column's range makes the database refuse the batch: logged, not thrown.
    const lines = await withLogLines(async (lines) => {
      expect(() =>
        noteRequestOutcome(app.db, { workspaceId: "ws_x", apiKeyId: null, procedure: "ip.lookup", status: 2 ** 40 }),
      ).not.toThrow();
      await expect(flushRequestOutcomes()).resolves.toBeUndefined();
      return lines;
    });
    expect(await app.db.requestOutcomeDaily.count({ where: { workspaceId: "ws_x" } })).toBe(0);
    const logged = lines.map((l) => JSON.parse(l) as { level: number; msg: string; component?: string });
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 50, component: "analytics", msg: "request outcome counters write failed" }),
    );
  });

  it("are purged with the other analytics data once older than the longest range", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const now = new Date();
    for (const ago of [400, 367, 365, 1])
      noteRequestOutcome(
        app.db,
        { workspaceId: ws.workspaceId, apiKeyId: ws.apiKeyId, procedure: "ip.lookup", status: 200 },
        new Date(now.getTime() - ago * DAY),
      );
    await flushRequestOutcomes();
    const result = await runRetentionPurge(app.db, now);
    expect(result.requestOutcomes).toBeGreaterThanOrEqual(2);
    expect((await counters(ws.workspaceId)).map((c) => c.day).sort()).toEqual([dateOf(365, now), dateOf(1, now)]);
  });

  it("counts an accepted bulk job as the 202 it was answered with, not as a 200", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const job = await app.request("POST", "/v1/jobs", {
      key: ws.apiKey,
      body: { kind: "ip", targets: ["8.8.8.8", "1.1.1.1"] },
    });
    expect(job.status).toBe(202);
    // The workspace's only request so far.
    expect((await counters(ws.workspaceId)).map((c) => [c.status, c.count])).toEqual([[202, 1]]);
  });
});

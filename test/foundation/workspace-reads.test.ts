import { beforeAll, describe, expect, it } from "vitest";
import { recordEvent } from "../../server/events/events";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

async function seedWithEvents() {
  const ws = await app.seedWorkspace({ plans: ["free"] });
  await recordEvent(app.db, {
    workspaceId: ws.workspaceId,
    requestId: "req_one",
    type: "assessment",
    ip: "203.0.113.7",
    email: "Eve@Example.com",
    data: { risk_level: "high", decision: "block", signals: [{ code: "tor_exit" }] },
  });
  await recordEvent(app.db, {
    workspaceId: ws.workspaceId,
    requestId: "req_two",
    type: "assessment",
    domain: "example.org",
    data: { risk_level: "low", decision: "allow", signals: [] },
  });
  await recordEvent(app.db, {
    workspaceId: ws.workspaceId,
    requestId: "req_three",
    type: "link.created",
    rule: '=HYPERLINK("x")',
    data: { note: 'a, "quoted" value' },
  });
  return ws;
}

describe("GET /v1/events", () => {
  it("lists the workspace's events newest first, unmetered, and never another workspace's", async () => {
    const ws = await seedWithEvents();
    const other = await seedWithEvents();
    const res = await app.request("GET", "/v1/events", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.items.map((e: any) => e.requestId)).toEqual(["req_three", "req_two", "req_one"]);
    expect(res.headers.get("x-service-quota-used")).toBeNull();
    expect(await app.used(ws.workspaceId)).toBe(0);
    const ids = new Set(res.body.items.map((e: any) => e.id));
    const theirs = await app.request("GET", "/v1/events", { key: other.apiKey });
    expect(theirs.body.items.some((e: any) => ids.has(e.id))).toBe(false);
  });

  it.each([
    ["req_one", ["req_one"]],
    ["203.0.113.7", ["req_one"]],
    ["eve@example.com", ["req_one"]],
    ["example.org", ["req_two"]],
    ["nothing-matches", []],
  ])("searches by %s", async (query, expected) => {
    const ws = await seedWithEvents();
    const res = await app.request("GET", `/v1/events?query=${encodeURIComponent(query)}`, { key: ws.apiKey });
    expect(res.body.items.map((e: any) => e.requestId)).toEqual(expected);
  });

  // An IPv6 address was found only in its one stored form, and a rule only by its id.
  it("finds an address in any spelling and a rule by its name, in the list and the CSV", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const other = await app.seedWorkspace({ plans: ["free"] });
    const rule = await app.db.rule.create({
      data: {
        id: "rule_search_nl",
        workspaceId: ws.workspaceId,
        name: "Block NL",
        action: "block",
        expression: "true",
      },
    });
    await app.db.rule.create({
      data: {
        id: "rule_search_theirs",
        workspaceId: other.workspaceId,
        name: "Block NL",
        action: "block",
        expression: "true",
      },
    });
    for (const [requestId, ip, ruleId] of [
      ["req_v6", "2a00:1450:4001:801::200e", null],
      ["req_v4", "81.2.69.160", rule.id],
      ["req_theirs_rule", "81.2.69.161", "rule_search_theirs"],
    ] as const)
      await recordEvent(app.db, {
        workspaceId: ws.workspaceId,
        requestId,
        type: "assessment",
        ip,
        rule: ruleId,
        data: {},
      });
    for (const [query, expected] of [
      ["2A00:1450:4001:0801::200E", ["req_v6"]],
      ["2a00:1450:4001:801:0:0:0:200e", ["req_v6"]],
      ["::ffff:81.2.69.160", ["req_v4"]],
      ["Block NL", ["req_v4"]],
      [rule.id, ["req_v4"]],
    ] as const) {
      const q = encodeURIComponent(query);
      const res = await app.request("GET", `/v1/events?query=${q}`, { key: ws.apiKey });
      expect(
        res.body.items.map((e: any) => e.requestId),
        query,
      ).toEqual(expected);
      const csv = await app.request("GET", `/v1/events.csv?query=${q}`, { key: ws.apiKey });
      expect(csv.text.trimEnd().split("\r\n"), query).toHaveLength(1 + expected.length);
    }
  });

  it("bounds the creation time with since (inclusive) and until (exclusive), in the list and the CSV", async () => {
    const ws = await seedWithEvents();
    const old = await app.db.event.findFirstOrThrow({ where: { workspaceId: ws.workspaceId, requestId: "req_one" } });
    await app.db.event.update({ where: { id: old.id }, data: { createdAt: new Date("2026-01-15T10:00:00Z") } });
    const list = async (qs: string) =>
      (await app.request("GET", `/v1/events?${qs}`, { key: ws.apiKey })).body.items.map((e: any) => e.requestId);
    expect(await list("since=2026-01-15T10:00:00Z&until=2026-01-16")).toEqual(["req_one"]);
    expect(await list("until=2026-01-15T10:00:00Z")).toEqual([]);
    expect(await list("since=2026-02-01")).toEqual(["req_three", "req_two"]);
    const csv = await app.request("GET", "/v1/events.csv?until=2026-02-01", { key: ws.apiKey });
    expect(csv.text.trimEnd().split("\r\n")).toHaveLength(2);
    const bad = await app.request("GET", "/v1/events?since=yesterday", { key: ws.apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_REQUEST");
  });

  it("pages with limit and cursor", async () => {
    const ws = await seedWithEvents();
    const first = await app.request("GET", "/v1/events?limit=2", { key: ws.apiKey });
    expect(first.body.items).toHaveLength(2);
    const second = await app.request("GET", `/v1/events?limit=2&cursor=${first.body.nextCursor}`, { key: ws.apiKey });
    expect(second.body.items.map((e: any) => e.requestId)).toEqual(["req_one"]);
    expect(second.body.nextCursor).toBeNull();
    expect((await app.request("GET", "/v1/events?limit=0", { key: ws.apiKey })).status).toBe(400);
  });

  it("refuses a cursor that names none of its events (made up, another workspace's, purged) rather than answer an empty page", async () => {
    const ws = await seedWithEvents();
    const other = await seedWithEvents();
    const foreign = (await app.request("GET", "/v1/events?limit=1", { key: other.apiKey })).body.nextCursor;
    const first = await app.request("GET", "/v1/events?limit=1", { key: ws.apiKey });
    const purged: string = first.body.nextCursor;
    await app.db.event.delete({ where: { id: purged } });
    for (const cursor of [foreign, "evt_made_up", purged]) {
      const res = await app.request("GET", `/v1/events?limit=1&cursor=${cursor}`, { key: ws.apiKey });
      expect(res.status, cursor).toBe(400);
      expect(res.body.error).toEqual({
        code: "INVALID_REQUEST",
        message:
          "cursor: unknown cursor (its item may have been deleted since); use the next_cursor of the previous page, or start again from the first page.",
      });
    }
  });
});

describe("GET /v1/events.csv", () => {
  it("exports CSV with quoting and formula-safe cells", async () => {
    const ws = await seedWithEvents();
    const res = await app.request("GET", "/v1/events.csv", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = res.text.trimEnd().split("\r\n");
    expect(lines[0]).toBe("id,created_at,request_id,type,actor,ip,email,domain,rule,data");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[1]).toContain(`"{""note"":""a, \\""quoted\\"" value""}"`);
  });

  it("needs a key", async () => {
    expect((await app.request("GET", "/v1/events.csv")).status).toBe(401);
  });
});

describe("GET /v1/analytics/summary", () => {
  it("counts endpoint usage from the ledger and risk from assessment events", async () => {
    const ws = await seedWithEvents();
    await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey });
    await app.request("GET", "/v1/ip/1.1.1.1/geo", { key: ws.apiKey });
    const res = await app.request("GET", "/v1/analytics/summary?days=7", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.endpoints).toEqual([{ endpoint: "ip.geo", requests: 2, units: 2 }]);
    expect(res.body.daily).toEqual([{ date: new Date().toISOString().slice(0, 10), requests: 2, units: 2 }]);
    expect(res.body.riskLevels).toEqual({ low: 1, medium: 0, high: 1, critical: 0 });
    expect(res.body.decisions).toEqual({ allow: 1, review: 0, challenge: 0, block: 1 });
    expect(res.body.topSignals).toEqual([{ signal: "tor_exit", count: 1 }]);
    expect(await app.used(ws.workspaceId)).toBe(2);
  });
});

// One rule for every route that takes a time range (`since` inclusive, `until` exclusive): an `until` not after
// `since` is 400 INVALID_REQUEST with one message, decided from the request alone and free, on every such route
// (events answered an empty page, rule backtests another message). The KEV catalog's inclusive `added_since` /
// `added_until` days follow it for dates: a same-day range is a range, one that ends before it starts is refused.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const RANGES = [
  ["until before since", "2026-02-01", "2026-01-01"],
  ["until equal to since", "2026-01-01T00:00:00Z", "2026-01-01"],
] as const;

const ROUTES: [string, (since: string, until: string) => [string, string, { body?: unknown }]][] = [
  ["GET /v1/events", (s, u) => ["GET", `/v1/events?since=${s}&until=${u}`, {}]],
  ["GET /v1/events.csv", (s, u) => ["GET", `/v1/events.csv?since=${s}&until=${u}`, {}]],
  ["GET /v1/lookups/history", (s, u) => ["GET", `/v1/lookups/history?since=${s}&until=${u}`, {}]],
  ["GET /v1/analytics/timeseries", (s, u) => ["GET", `/v1/analytics/timeseries?since=${s}&until=${u}`, {}]],
  [
    "POST /v1/rules/backtest",
    (s, u) => ["POST", "/v1/rules/backtest", { body: { action: "block", expression: "true", since: s, until: u } }],
  ],
];

describe("a time range whose until is not after its since", () => {
  it.each(ROUTES.flatMap(([route, make]) => RANGES.map(([what, s, u]) => [route, what, make(s, u)] as const)))(
    "%s: %s is 400 INVALID_REQUEST naming until, free",
    async (_route, _what, [method, path, opts]) => {
      const ws = await app.seedWorkspace({ plans: ["suite_business"] });
      const res = await app.request(method, path, { key: ws.apiKey, ...opts });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: "INVALID_REQUEST", message: "until must be after since" } });
      expect(await app.used(ws.workspaceId)).toBe(0);
    },
  );

  it.each(ROUTES)("%s still answers a range whose until is after its since", async (_route, make) => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const [method, path, opts] = make("2026-01-01", "2026-01-02");
    const res = await app.request(method, path, { key: ws.apiKey, ...opts });
    expect(res.status).toBe(200);
  });
});

describe("GET /v1/vulnerabilities/kev/ added_since and added_until (days, both included)", () => {
  it("refuses an added_until before added_since with 400, nothing consumed", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/vulnerabilities/kev/?added_since=2024-02-01&added_until=2024-01-31", {
      key: ws.apiKey,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: { code: "INVALID_REQUEST", message: "added_until must not be before added_since" },
    });
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("answers a same-day range", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/vulnerabilities/kev/?added_since=2024-01-31&added_until=2024-01-31", {
      key: ws.apiKey,
    });
    expect(res.status).toBe(200);
    expect(res.body.vulnerabilities.every((v: { dateAdded: string }) => v.dateAdded === "2024-01-31")).toBe(true);
  });
});

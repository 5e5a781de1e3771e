// The public lists answer snake_case names. /events, /lookups/history, /go/links and a webhook's deliveries answered
// `nextCursor` (and events and history entries `requestId`, history `historyDays`) in camelCase first: they answer
// the snake_case names too, and the OpenAPI document gives every list's next page as `next_cursor`.
import { beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../harness";
import { createLink, startLinksApp } from "../links/setup";

let app: TestApp;
beforeAll(async () => {
  app = await startLinksApp();
});

describe("snake_case names on the lists that answered camelCase first", () => {
  it("pages /events, /lookups/history and /go/links by next_cursor, with request_id and history_days", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    for (const path of ["/sendme", "/pay"]) {
      const made = await createLink(app, { url: `https://example.com${path}` }, { key: ws.apiKey });
      expect(made.status).toBe(200);
    }
    for (const ip of ["8.8.8.8", "1.1.1.1"])
      expect((await app.request("GET", `/v1/ip/${ip}/geo`, { key: ws.apiKey })).status).toBe(200);
    for (const path of ["/v1/events?limit=1", "/v1/lookups/history?limit=1", "/v1/go/links?limit=1"]) {
      const first = await app.request("GET", path, { key: ws.apiKey });
      expect(first.status, path).toBe(200);
      expect(first.body.next_cursor, path).toEqual(expect.any(String));
      expect(first.body.nextCursor, path).toBe(first.body.next_cursor);
      const second = await app.request("GET", `${path}&cursor=${first.body.next_cursor}`, { key: ws.apiKey });
      expect(second.status, path).toBe(200);
      expect(second.body.items[0].id, path).not.toBe(first.body.items[0].id);
      if (!path.startsWith("/v1/go/")) {
        expect(first.body.items[0].request_id, path).toEqual(expect.stringMatching(/^req_/));
        expect(first.body.items[0].requestId, path).toBe(first.body.items[0].request_id);
      }
    }
    const history = await app.request("GET", "/v1/lookups/history", { key: ws.apiKey });
    expect(history.body.history_days).toBeGreaterThan(0);
    expect(history.body.historyDays).toBe(history.body.history_days);
  });

  it("gives next_cursor on every paged list of the OpenAPI document", async () => {
    const doc = (await app.request("GET", "/v1/openapi.json")).body;
    const camelOnly: string[] = [];
    let paged = 0;
    for (const [path, ops] of Object.entries<Record<string, { responses?: Record<string, unknown> }>>(doc.paths)) {
      const schema = JSON.stringify(ops.get?.responses?.["200"] ?? {});
      if (!schema.includes("ursor")) continue;
      paged += 1;
      if (schema.includes('"nextCursor"') && !schema.includes('"next_cursor"')) camelOnly.push(path);
    }
    expect(paged).toBeGreaterThan(8);
    expect(camelOnly).toEqual([]);
  });
});

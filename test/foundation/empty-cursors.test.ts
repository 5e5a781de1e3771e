// One rule for an empty `cursor` on every list (`?cursor=`, what a client sends when it fills the first page's
// absent next_cursor into a template): it is the first page. /cases, /scans/hosts and /users/{user_id} answered 400
// ("must not be empty", "not a date") where /events, /go/links, /jobs and the rest answered the first page. A cursor
// the service never issued stays 400 where the list can tell (test/foundation/id-cursors.test.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { sortableId } from "../../server/ids";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  process.env.SERVICE_BULK_WORKER = "0";
  app = await createTestApp();
}, 120_000);

const LISTS = [
  "/v1/events",
  "/v1/lookups/history",
  "/v1/go/links",
  "/v1/jobs",
  "/v1/lists",
  "/v1/cases",
  "/v1/cases?status=resolved",
  "/v1/monitors",
  "/v1/projects",
  "/v1/scans/hosts",
];

// The lists seeded below with two rows each, read a row a page: the first page then has a row and a next cursor, so
// an empty cursor read as a position (past the end, or a refused one) could not pass for the first page.
const SEEDED = new Set(["/v1/events", "/v1/lookups/history", "/v1/lists", "/v1/cases"]);

describe("an empty cursor is the first page", () => {
  it.each(LISTS)("%s", async (path) => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    for (const n of [1, 2]) {
      await app.db.reviewCase.create({
        data: {
          id: sortableId("case"),
          workspaceId: ws.workspaceId,
          requestId: `req_empty_${n}`,
          decision: "review",
          score: 60,
        },
      });
      // A list (and its audit event) and a counted lookup (a history row).
      expect(
        (await app.request("POST", "/v1/lists", { key: ws.apiKey, body: { name: `l${n}`, kind: "email" } })).status,
      ).toBe(200);
      expect((await app.request("GET", `/v1/ip/8.8.${n}.8/geo`, { key: ws.apiKey })).status).toBe(200);
    }
    const sep = path.includes("?") ? "&" : "?";
    const page = SEEDED.has(path) ? `${path}${sep}limit=1` : path;
    const first = await app.request("GET", page, { key: ws.apiKey });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    if (SEEDED.has(path)) expect(first.body.items, path).toHaveLength(1);
    const empty = await app.request("GET", `${page}${page.includes("?") ? "&" : "?"}cursor=`, { key: ws.apiKey });
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    expect(empty.body).toEqual(first.body);
  });

  it("on a list inside a resource: an account's assessments and a list's items", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const assessed = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "signup", ip: "8.8.8.8", user_id: "u_empty_cursor" },
    });
    expect(assessed.status, JSON.stringify(assessed.body)).toBe(200);
    const list = await app.request("POST", "/v1/lists", { key: ws.apiKey, body: { name: "vips", kind: "email" } });
    expect(list.status).toBe(200);
    const items = await app.request("POST", `/v1/lists/${list.body.id}/items`, {
      key: ws.apiKey,
      body: { items: [{ value: "a@example.com" }] },
    });
    expect(items.status, JSON.stringify(items.body)).toBe(200);
    for (const path of ["/v1/users/u_empty_cursor", `/v1/lists/${list.body.id}/items`]) {
      const first = await app.request("GET", path, { key: ws.apiKey });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const empty = await app.request("GET", `${path}?cursor=`, { key: ws.apiKey });
      expect(empty.status, `${path}: ${JSON.stringify(empty.body)}`).toBe(200);
      expect(empty.body).toEqual(first.body);
    }
  });
});

// /v1/lists over REST with an API key: CRUD, values normalised and validated by kind (a bad item refuses the
// whole batch), CSV and a 10,000-item import, cursors, search, the `full` capability (Free is 403) and isolation
// between workspaces. Both stores: DATABASE_URL selects PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
}, 120_000);

const req = (key: string, method: string, path: string, body?: unknown) =>
  app.request(method, path, { key, ...(body === undefined ? {} : { body }) });

async function newList(key: string, body: Record<string, unknown>) {
  const res = await req(key, "POST", "/v1/lists", body);
  expect(res.status).toBe(200);
  return res.body as { id: string; name: string; kind: string };
}

describe("/v1/lists", () => {
  it("creates, reads, renames, pages and deletes lists, with audit events", async () => {
    const ws = await app.seedWorkspace();
    const a = await newList(ws.apiKey, { name: "blocked_emails", kind: "email", description: "Chargebacks" });
    expect(a).toMatchObject({ name: "blocked_emails", kind: "email", description: "Chargebacks", item_count: 0 });
    expect((await req(ws.apiKey, "POST", "/v1/lists", { name: "blocked_emails", kind: "ip" })).status).toBe(409);
    expect((await req(ws.apiKey, "POST", "/v1/lists", { name: "Bad-Name", kind: "ip" })).status).toBe(400);
    expect((await req(ws.apiKey, "POST", "/v1/lists", { name: "x", kind: "phone" })).status).toBe(400);
    await newList(ws.apiKey, { name: "office_networks", kind: "ip" });
    await newList(ws.apiKey, { name: "asns", kind: "asn" });

    const page1 = await req(ws.apiKey, "GET", "/v1/lists?limit=2");
    expect(page1.body.items.map((l: { name: string }) => l.name)).toEqual(["asns", "blocked_emails"]);
    const page2 = await req(ws.apiKey, "GET", `/v1/lists?limit=2&cursor=${page1.body.next_cursor}`);
    expect(page2.body).toMatchObject({ items: [{ name: "office_networks" }], next_cursor: null });

    const renamed = await req(ws.apiKey, "PATCH", `/v1/lists/${a.id}`, { name: "bad_emails", description: null });
    expect(renamed.body).toMatchObject({ id: a.id, name: "bad_emails", description: null, kind: "email" });
    expect((await req(ws.apiKey, "GET", `/v1/lists/${a.id}`)).body.name).toBe("bad_emails");
    // The kind never changes: asking for it is refused, not ignored.
    const rekind = await req(ws.apiKey, "PATCH", `/v1/lists/${a.id}`, { kind: "ip" });
    expect(rekind.status).toBe(400);
    expect(rekind.body.error).toMatchObject({ code: "INVALID_REQUEST" });
    expect(rekind.body.error.message).toContain("kind");
    // Nothing to change is refused as PATCH /rules, /webhooks and /monitors refuse it (it answered 200, wrote an
    // audit entry "list updated" and bumped the list's version): an empty object and no body at all.
    for (const body of [{}, undefined]) {
      const empty = await req(ws.apiKey, "PATCH", `/v1/lists/${a.id}`, body);
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({
        error: { code: "INVALID_REQUEST", message: expect.stringContaining("send at least one of name, description") },
      });
    }
    expect((await req(ws.apiKey, "DELETE", `/v1/lists/${a.id}`)).body).toEqual({ id: a.id, deleted: true });
    expect((await req(ws.apiKey, "GET", `/v1/lists/${a.id}`)).status).toBe(404);

    const events = await req(ws.apiKey, "GET", "/v1/events?limit=100");
    const types = events.body.items.map((e: { type: string }) => e.type);
    expect(types.filter((t: string) => t === "audit.list.created")).toHaveLength(3);
    expect(types.filter((t: string) => t === "audit.list.updated")).toHaveLength(1);
    expect(types).toContain("audit.list.deleted");
  });

  it("normalises items by kind, refuses a batch with one bad item and writes nothing", async () => {
    const ws = await app.seedWorkspace();
    const ip = await newList(ws.apiKey, { name: "nets", kind: "ip" });
    const bad = await req(ws.apiKey, "POST", `/v1/lists/${ip.id}/items`, {
      items: [{ value: "203.0.113.7" }, { value: "10.0.0.0/33" }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_REQUEST");
    expect(bad.body.error.message).toContain("items.1 ");
    expect(bad.body.error.message).toContain("10.0.0.0/33");
    expect((await req(ws.apiKey, "GET", `/v1/lists/${ip.id}/items`)).body.items).toEqual([]);

    const ok = await req(ws.apiKey, "POST", `/v1/lists/${ip.id}/items`, {
      items: [
        { value: " 203.0.113.77/24 ", note: "office" },
        { value: "2001:DB8:0:0::1" },
        { value: "2001:db8:abcd::/48", expires_at: "2030-01-01T00:00:00Z" },
      ],
    });
    expect(ok.body).toMatchObject({ received: 3, added: 3, updated: 0 });
    const items = (await req(ws.apiKey, "GET", `/v1/lists/${ip.id}/items`)).body.items;
    expect(items.map((i: { value: string }) => i.value)).toEqual([
      "2001:db8::1",
      "2001:db8:abcd::/48",
      "203.0.113.0/24",
    ]);
    expect(items[1]).toMatchObject({ expires_at: "2030-01-01T00:00:00.000Z", expired: false });
    // The same value again replaces note and expiry.
    const again = await req(ws.apiKey, "POST", `/v1/lists/${ip.id}/items`, {
      items: [{ value: "203.0.113.0/24", note: "HQ" }],
    });
    expect(again.body).toMatchObject({ added: 0, updated: 1 });
    const searched = await req(ws.apiKey, "GET", `/v1/lists/${ip.id}/items?query=hq`);
    expect(searched.body.items).toMatchObject([{ value: "203.0.113.0/24", note: "HQ" }]);

    const cases: [string, string, string][] = [
      ["email", "Alice@Example.COM", "alice@example.com"],
      ["email_domain", "@Mailinator.com", "mailinator.com"],
      ["country", "de", "DE"],
      ["asn", "AS64496", "64496"],
      ["user", " u-42 ", "u-42"],
    ];
    for (const [kind, value, stored] of cases) {
      const l = await newList(ws.apiKey, { name: `k_${kind}`, kind });
      await req(ws.apiKey, "POST", `/v1/lists/${l.id}/items`, { items: [{ value }] });
      expect((await req(ws.apiKey, "GET", `/v1/lists/${l.id}/items`)).body.items[0].value).toBe(stored);
    }
    const country = await newList(ws.apiKey, { name: "countries", kind: "country" });
    const r = await req(ws.apiKey, "POST", `/v1/lists/${country.id}/items`, { items: [{ value: "Germany" }] });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain("two-letter");
    // An expiry that is not a date says what to write.
    const when = await req(ws.apiKey, "POST", `/v1/lists/${country.id}/items`, {
      items: [{ value: "DE", expires_at: "tomorrow" }],
    });
    expect(when.status).toBe(400);
    expect(when.body.error.message).toBe(
      "items.0.expires_at: not a date; write an ISO 8601 date or date-time such as 2027-01-31T00:00:00Z",
    );

    // Removing one item.
    const del = await req(ws.apiKey, "DELETE", `/v1/lists/${ip.id}/items/${items[0].id}`);
    expect(del.body).toEqual({ id: items[0].id, deleted: true });
    expect((await req(ws.apiKey, "DELETE", `/v1/lists/${ip.id}/items/${items[0].id}`)).status).toBe(404);
  });

  it("imports 10,000 items from CSV in one call, pages them, and refuses 10,001", async () => {
    const ws = await app.seedWorkspace();
    const l = await newList(ws.apiKey, { name: "big", kind: "email" });
    const lines = ["value,expires_at,note"];
    for (let i = 0; i < 10_000; i++) lines.push(`user${i}@example.com,,"row ${i}, imported"`);
    const res = await req(ws.apiKey, "POST", `/v1/lists/${l.id}/items`, { csv: lines.join("\n") });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 10_000, added: 10_000 });
    expect((await req(ws.apiKey, "GET", `/v1/lists/${l.id}`)).body.item_count).toBe(10_000);
    // The same file as the body itself, with Content-Type text/csv: the same items, nothing new.
    const upload = await app.request("POST", `/v1/lists/${l.id}/items`, {
      key: ws.apiKey,
      headers: { "Content-Type": "text/csv; charset=utf-8" },
      body: lines.join("\r\n"),
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    expect(upload.body).toMatchObject({ received: 10_000, added: 0, updated: 10_000 });
    const badUpload = await app.request("POST", `/v1/lists/${l.id}/items`, {
      key: ws.apiKey,
      headers: { "Content-Type": "text/csv" },
      body: "ok@example.com\nnot-an-email\n",
    });
    expect(badUpload.status).toBe(400);
    expect(badUpload.body.error.message).toContain("CSV line 2");
    const page = await req(ws.apiKey, "GET", `/v1/lists/${l.id}/items?limit=200`);
    expect(page.body.items).toHaveLength(200);
    expect(page.body.items[0]).toMatchObject({ value: "user0@example.com", note: "row 0, imported" });
    expect(page.body.next_cursor).toBe(page.body.items[199].value);

    const badCsv = await req(ws.apiKey, "POST", `/v1/lists/${l.id}/items`, { csv: "ok@example.com\nnot-an-email\n" });
    expect(badCsv.status).toBe(400);
    expect(badCsv.body.error.message).toContain("CSV line 2");
    const tooMany = Array.from({ length: 10_001 }, (_, i) => `x${i}@example.com`).join("\n");
    expect((await req(ws.apiKey, "POST", `/v1/lists/${l.id}/items`, { csv: tooMany })).status).toBe(400);
    expect((await req(ws.apiKey, "GET", `/v1/lists/${l.id}`)).body.item_count).toBe(10_000);
  }, 120_000);

  it("needs the full capability: Free is 403 CAPABILITY_REQUIRED", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    for (const [method, path, body] of [
      ["GET", "/v1/lists", undefined],
      ["POST", "/v1/lists", { name: "x", kind: "ip" }],
    ] as const) {
      const res = await req(ws.apiKey, method, path, body);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("CAPABILITY_REQUIRED");
    }
  });

  it("another workspace's list is 404 for every route", async () => {
    const a = await app.seedWorkspace();
    const b = await app.seedWorkspace();
    const l = await newList(a.apiKey, { name: "mine", kind: "user" });
    await req(a.apiKey, "POST", `/v1/lists/${l.id}/items`, { items: [{ value: "u1" }] });
    const item = (await req(a.apiKey, "GET", `/v1/lists/${l.id}/items`)).body.items[0];
    expect((await req(b.apiKey, "GET", "/v1/lists")).body.items).toEqual([]);
    for (const [method, path, body] of [
      ["GET", `/v1/lists/${l.id}`, undefined],
      ["PATCH", `/v1/lists/${l.id}`, { description: "x" }],
      ["GET", `/v1/lists/${l.id}/items`, undefined],
      ["POST", `/v1/lists/${l.id}/items`, { items: [{ value: "u2" }] }],
      ["DELETE", `/v1/lists/${l.id}/items/${item.id}`, undefined],
      ["DELETE", `/v1/lists/${l.id}`, undefined],
    ] as const) {
      expect((await req(b.apiKey, method, path, body)).status).toBe(404);
    }
    expect((await req(a.apiKey, "GET", `/v1/lists/${l.id}`)).body.item_count).toBe(1);
  });
});

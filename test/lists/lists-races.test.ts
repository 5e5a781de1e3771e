// The same change sent several times at once (a double-clicked button, a retrying client): one of them does it and
// the others find it done, 404 for a deletion that already happened and 200 for a rename to the name the list already
// has, never a 500. On PostgreSQL a change that read the row before waiting for a concurrent deletion used to go on
// with what it had read (a list, a list item or a monitor deleted twice was 500 INTERNAL_ERROR; a rename 409).
// Both stores: DATABASE_URL selects PostgreSQL, where the requests really overlap.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
}, 120_000);

const TIMES = 8;

/** The statuses of the same request sent TIMES times at once, sorted. */
async function atOnce(key: string, method: string, path: string, body?: unknown): Promise<number[]> {
  const all = await Promise.all(
    Array.from({ length: TIMES }, () => app.request(method, path, { key, ...(body === undefined ? {} : { body }) })),
  );
  return all.map((r) => r.status).sort((x, y) => x - y);
}

const once = (n: number) => [200, ...Array.from({ length: n - 1 }, () => 404)];

describe("the same change sent at once", () => {
  it("deletes a list once; the others are 404", async () => {
    const ws = await app.seedWorkspace();
    const list = (await app.request("POST", "/v1/lists", { key: ws.apiKey, body: { name: "dup", kind: "ip" } })).body;
    await app.request("POST", `/v1/lists/${list.id}/items`, {
      key: ws.apiKey,
      body: { items: [{ value: "192.0.2.1" }] },
    });
    expect(await atOnce(ws.apiKey, "DELETE", `/v1/lists/${list.id}`)).toEqual(once(TIMES));
    expect((await app.request("GET", `/v1/lists/${list.id}`, { key: ws.apiKey })).status).toBe(404);
  });

  it("renames a list once; the others find the name already given", async () => {
    const ws = await app.seedWorkspace();
    const list = (await app.request("POST", "/v1/lists", { key: ws.apiKey, body: { name: "old", kind: "ip" } })).body;
    expect(await atOnce(ws.apiKey, "PATCH", `/v1/lists/${list.id}`, { name: "new_name" })).toEqual(
      Array.from({ length: TIMES }, () => 200),
    );
    expect((await app.request("GET", `/v1/lists/${list.id}`, { key: ws.apiKey })).body.name).toBe("new_name");
  });

  it("removes a list item once; the others are 404", async () => {
    const ws = await app.seedWorkspace();
    const list = (await app.request("POST", "/v1/lists", { key: ws.apiKey, body: { name: "items", kind: "ip" } })).body;
    await app.request("POST", `/v1/lists/${list.id}/items`, {
      key: ws.apiKey,
      body: { items: [{ value: "192.0.2.1" }, { value: "192.0.2.2" }] },
    });
    const items = (await app.request("GET", `/v1/lists/${list.id}/items`, { key: ws.apiKey })).body.items;
    const item = items.find((i: { value: string }) => i.value === "192.0.2.1");
    expect(await atOnce(ws.apiKey, "DELETE", `/v1/lists/${list.id}/items/${item.id}`)).toEqual(once(TIMES));
    const left = (await app.request("GET", `/v1/lists/${list.id}/items`, { key: ws.apiKey })).body.items;
    expect(left.map((i: { value: string }) => i.value)).toEqual(["192.0.2.2"]);
  });

  it("deletes a monitor once; the others are 404", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const monitor = (
      await app.request("POST", "/v1/monitors", {
        key: ws.apiKey,
        body: {
          target: "acme-shop",
          checks: [{ type: "packages", packages: [{ ecosystem: "npm", name: "left-pad", version: "1.3.0" }] }],
          interval: "24h",
        },
      })
    ).body;
    expect(monitor.id).toMatch(/^mon_/);
    expect(await atOnce(ws.apiKey, "DELETE", `/v1/monitors/${monitor.id}`)).toEqual(once(TIMES));
    expect((await app.request("GET", `/v1/monitors/${monitor.id}`, { key: ws.apiKey })).status).toBe(404);
  });
});

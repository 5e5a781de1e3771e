import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { nextReset } from "../../server/quota/period";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe("GET /v1/ip/{ip}/geo", () => {
  it("answers a public IPv4 address with its location, source and exact quota headers", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.ip).toBe("8.8.8.8");
    expect(res.body.version).toBe(4);
    expect(res.body.country).toEqual({ code: "US", name: "United States" });
    expect(typeof res.body.latitude).toBe("number");
    expect(res.body.reason).toBeNull();
    expect(res.body.source.attribution).toBe("IP Geolocation by DB-IP");
    expect(res.headers.get("x-service-quota-limit")).toBe("1000");
    expect(res.headers.get("x-service-quota-used")).toBe("1");
    expect(res.headers.get("x-service-quota-remaining")).toBe("999");
    expect(res.headers.get("x-service-quota-reset")).toBe(nextReset().toISOString());
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(1);
  });

  it("answers an IPv6 address", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/ip/2001:4860:4860::8888/geo", { key: ws.apiKey, keyHeader: "x-api-key" });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(6);
    expect(res.body.country?.code).toMatch(/^[A-Z]{2}$/);
  });

  it.each([
    ["10.1.2.3", "private"],
    ["127.0.0.1", "loopback"],
    ["169.254.1.1", "link_local"],
    ["fd00::1", "unique_local"],
  ])("answers %s with null location and the reason (%s)", async (ip, scope) => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", `/v1/ip/${encodeURIComponent(ip)}/geo`, { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe(scope);
    expect(res.body.country).toBeNull();
    expect(res.body.city).toBeNull();
    expect(res.body.reason).toEqual(expect.any(String));
  });

  it.each(["999.1.1.1", "not-an-ip", "1.2.3", "0x7f.0.0.1"])(
    "rejects %s with 400 INVALID_REQUEST and consumes nothing",
    async (ip) => {
      const ws = await app.seedWorkspace({ plans: ["free"] });
      const res = await app.request("GET", `/v1/ip/${ip}/geo`, { key: ws.apiKey });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
      expect(Object.keys(res.body)).toEqual(["error"]);
      expect(await app.used(ws.workspaceId)).toBe(0);
      expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
    },
  );

  it("records a safe history entry for plans with a history window and none for Free", async () => {
    const paid = await app.seedWorkspace({ plans: ["suite_starter"] });
    await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: paid.apiKey });
    const hist = await app.request("GET", "/v1/lookups/history", { key: paid.apiKey });
    expect(hist.status).toBe(200);
    expect(hist.body.historyDays).toBe(30);
    expect(hist.body.items).toHaveLength(1);
    const entry = hist.body.items[0];
    expect(entry.target).toBe("8.8.8.8");
    expect(entry.endpoint).toBe("ip.geo");
    expect(new Date(entry.expires_at).getTime() - new Date(entry.created_at).getTime()).toBe(30 * 86_400_000);
    expect(hist.headers.get("x-service-quota-used")).toBeNull();

    const free = await app.seedWorkspace({ plans: ["free"] });
    await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: free.apiKey });
    const none = await app.request("GET", "/v1/lookups/history", { key: free.apiKey });
    expect(none.body).toEqual({ history_days: 0, historyDays: 0, items: [], next_cursor: null, nextCursor: null });
  });

  it("filters the history by endpoint or endpoint family and by time, and refuses a malformed filter", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const before = new Date().toISOString();
    await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey });
    await app.request("GET", "/v1/ip/1.1.1.1", { key: ws.apiKey });
    await app.request("GET", "/v1/asn/15169", { key: ws.apiKey });
    const targets = async (query: string) =>
      (await app.request("GET", `/v1/lookups/history?${query}`, { key: ws.apiKey })).body.items.map(
        (i: any) => `${i.endpoint} ${i.target}`,
      );
    expect(await targets("endpoint=ip.geo")).toEqual(["ip.geo 8.8.8.8"]);
    expect((await targets("endpoint=ip")).sort()).toEqual(["ip.geo 8.8.8.8", "ip.lookup 1.1.1.1"]);
    expect(await targets("endpoint=asn")).toEqual(["asn.lookup AS15169"]);
    expect(await targets("endpoint=i")).toEqual([]);
    expect(await targets(`since=${encodeURIComponent(before)}`)).toHaveLength(3);
    expect(await targets(`until=${encodeURIComponent(before)}`)).toEqual([]);
    const bad = await app.request("GET", "/v1/lookups/history?endpoint=IP%20LOOKUP", { key: ws.apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_REQUEST");
  });

  it("pages by cursor, and refuses a cursor that names none of its entries rather than answer an empty page", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const other = await app.seedWorkspace({ plans: ["suite_business"] });
    for (const ip of ["8.8.8.8", "1.1.1.1", "9.9.9.9"])
      await app.request("GET", `/v1/ip/${ip}/geo`, { key: ws.apiKey });
    await app.request("GET", "/v1/ip/8.8.4.4/geo", { key: other.apiKey });
    const page = (key: string, query: string) => app.request("GET", `/v1/lookups/history?${query}`, { key });
    const first = await page(ws.apiKey, "limit=2");
    const second = await page(ws.apiKey, `limit=2&cursor=${first.body.nextCursor}`);
    expect([...first.body.items, ...second.body.items].map((i: any) => i.target)).toEqual([
      "9.9.9.9",
      "1.1.1.1",
      "8.8.8.8",
    ]);
    expect(second.body.nextCursor).toBeNull();
    // An entry past its window but not yet purged is no longer listed; as a cursor it still continues the walk, and
    // skips nothing after it.
    const lapsed = first.body.items[1].id as string;
    await app.db.lookupHistory.update({ where: { id: lapsed }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const listed = await page(ws.apiKey, "limit=5");
    expect(listed.body.items.map((i: any) => i.target)).toEqual(["9.9.9.9", "8.8.8.8"]);
    const afterLapsed = await page(ws.apiKey, `limit=2&cursor=${lapsed}`);
    expect(afterLapsed.status).toBe(200);
    expect(afterLapsed.body.items.map((i: any) => i.target)).toEqual(["8.8.8.8"]);
    // Another workspace's entry, a made-up id, and an entry the retention purge removed.
    const foreign = (await page(other.apiKey, "")).body.items[0].id;
    const purged = first.body.items[1].id as string;
    await app.db.lookupHistory.delete({ where: { id: purged } });
    for (const cursor of [foreign, "lh_made_up", purged]) {
      const res = await page(ws.apiKey, `limit=2&cursor=${cursor}`);
      expect(res.status, cursor).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
      expect(res.body.error.message).toMatch(
        /^cursor: unknown cursor \(its item may have been deleted since\); use the next_cursor of the previous page/,
      );
    }
    expect(await app.used(ws.workspaceId)).toBe(3);
  });
});

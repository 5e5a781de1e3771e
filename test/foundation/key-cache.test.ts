// The key cache of the metered path (server/keys/cache.ts): a metered request after the first takes its key from
// memory, and a change made by any other writer (here: SQL straight against the database, as another instance,
// a billing webhook or an operator would) still takes effect on the very next request, charging nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { metrics } from "../../server/operate/metrics";
import { reserveUnitsGrouped } from "../../server/quota/grouped-reserve";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

async function cacheCount(outcome: "hit" | "miss" | "stale"): Promise<number> {
  const { values } = await metrics().keyCache.get();
  return values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

const geo = (key: string, ip = "8.8.8.8") => app.request("GET", `/v1/ip/${ip}/geo`, { key });
const assess = (key: string) =>
  app.request("POST", "/v1/assess", { key, body: { event: "signup", ip: "203.0.113.9" } });

async function setPlan(workspaceId: string, plan: string): Promise<void> {
  await app.db.subscription.updateMany({ where: { workspaceId }, data: { plan } });
}

describe("key cache", () => {
  it("serves a metered request's key from memory after the first read, with exact quota headers", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const hits = await cacheCount("hit");
    const first = await geo(ws.apiKey);
    const second = await geo(ws.apiKey);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await cacheCount("hit")).toBe(hits + 1);
    expect([first.headers.get("x-service-quota-used"), second.headers.get("x-service-quota-used")]).toEqual(["1", "2"]);
    expect(await app.used(ws.workspaceId)).toBe(2);
  });

  it("refuses a key revoked by another writer on the next request (401), charging nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    expect((await geo(ws.apiKey)).status).toBe(200);
    const stale = await cacheCount("stale");
    await app.db.apiKey.update({ where: { id: ws.apiKeyId }, data: { status: "revoked", revokedAt: new Date() } });
    const refused = await geo(ws.apiKey);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("UNAUTHORIZED");
    expect(refused.headers.get("x-service-quota-used")).toBeNull();
    expect(await cacheCount("stale")).toBe(stale + 1);
    // The entry is gone: the next request reads the key and is refused before any reservation.
    expect((await geo(ws.apiKey)).status).toBe(401);
    expect(await app.used(ws.workspaceId)).toBe(1);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(1);
  });

  it("refuses a key paused by another writer on the next request (403 API_KEY_PAUSED)", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    expect((await geo(ws.apiKey)).status).toBe(200);
    await app.db.apiKey.update({ where: { id: ws.apiKeyId }, data: { status: "paused" } });
    const refused = await geo(ws.apiKey);
    expect([refused.status, refused.body.error.code]).toEqual([403, "API_KEY_PAUSED"]);
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("judges a refusal before the reservation by a fresh read: bad input with a revoked cached key is 401, not 400", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    expect((await geo(ws.apiKey)).status).toBe(200);
    expect((await geo(ws.apiKey, "not-an-ip")).status).toBe(400);
    await app.db.apiKey.update({ where: { id: ws.apiKeyId }, data: { status: "revoked", revokedAt: new Date() } });
    const refused = await geo(ws.apiKey, "not-an-ip");
    expect([refused.status, refused.body.error.code]).toEqual([401, "UNAUTHORIZED"]);
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("applies a plan lost under a cached key on the next request (403 CAPABILITY_REQUIRED, nothing charged)", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    expect((await assess(ws.apiKey)).status).toBe(200);
    await setPlan(ws.workspaceId, "free");
    const refused = await assess(ws.apiKey);
    expect([refused.status, refused.body.error.code]).toEqual([403, "CAPABILITY_REQUIRED"]);
    expect(await app.used(ws.workspaceId)).toBe(1);
    // A lookup the smaller plan still allows is admitted under its allowance, not the cached one.
    const geoAfter = await geo(ws.apiKey);
    expect(geoAfter.status).toBe(200);
    expect(geoAfter.headers.get("x-service-quota-limit")).toBe("1000");
  });

  it("applies a plan gained under a cached key on the next request: the new capability and allowance", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const before = await geo(ws.apiKey);
    expect(before.headers.get("x-service-quota-limit")).toBe("1000");
    await setPlan(ws.workspaceId, "suite_business");
    // The cached plans still say Free: the reservation's check finds otherwise and the request runs on the new plan.
    const after = await geo(ws.apiKey);
    expect(after.status).toBe(200);
    expect(after.headers.get("x-service-quota-limit")).toBe("25000");
    expect(after.headers.get("x-service-quota-used")).toBe("2");
    await setPlan(ws.workspaceId, "free");
    expect((await geo(ws.apiKey)).status).toBe(200);
    await setPlan(ws.workspaceId, "suite_business");
    // The capability Free lacks: the cached principal would refuse it, a fresh read admits it.
    const assessed = await assess(ws.apiKey);
    expect(assessed.status).toBe(200);
    expect(assessed.headers.get("x-service-quota-limit")).toBe("25000");
  });

  it("a guarded group admits the requests whose key still holds and leaves the revoked key's request unreserved", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const { createApiKey } = await import("../../server/keys/keys");
    const other = await createApiKey(app.db, { workspaceId: ws.workspaceId });
    await app.db.apiKey.update({ where: { id: ws.apiKeyId }, data: { status: "revoked", revokedAt: new Date() } });
    const plans = ["suite_business"];
    const args = (i: number) => ({
      workspaceId: ws.workspaceId,
      units: 1,
      limit: 25_000,
      requestId: `req_k${i}`,
      endpoint: "test",
    });
    const keys = [other.key.id, ws.apiKeyId, other.key.id, other.key.id, ws.apiKeyId];
    const states = await Promise.all(
      keys.map((id, i) => reserveUnitsGrouped(app.db, args(i), { apiKeyId: id, plans })),
    );
    expect(states.map((q) => (q === "stale" ? q : q?.used))).toEqual([1, "stale", 2, 3, "stale"]);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(3);
    // Plans that no longer hold fail every guarded request and write nothing.
    const wrong = await Promise.all(
      [0, 1].map((i) => reserveUnitsGrouped(app.db, args(10 + i), { apiKeyId: other.key.id, plans: ["free"] })),
    );
    expect(wrong).toEqual(["stale", "stale"]);
    expect(await app.used(ws.workspaceId)).toBe(3);
  });

  it("is off with SERVICE_KEY_CACHE_SECONDS=0: every request reads its key", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    process.env.SERVICE_KEY_CACHE_SECONDS = "0";
    try {
      const hits = await cacheCount("hit");
      await geo(ws.apiKey);
      await geo(ws.apiKey);
      expect(await cacheCount("hit")).toBe(hits);
    } finally {
      delete process.env.SERVICE_KEY_CACHE_SECONDS;
    }
  });
});

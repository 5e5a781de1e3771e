import { beforeAll, describe, expect, it } from "vitest";
import { applyKeyLimit, createApiKey, listApiKeys, revokeApiKeyOrThrow } from "../../server/keys/keys";
import { hashApiKey } from "../../server/keys/secret";
import { setPlans } from "../../server/workspaces/workspaces";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe("API keys", () => {
  it("stores only a hash and a display prefix", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const row = await app.db.apiKey.findUniqueOrThrow({ where: { id: ws.apiKeyId } });
    expect(row.hash).toBe(hashApiKey(ws.apiKey));
    expect(row.hash).not.toContain(ws.apiKey);
    expect(ws.apiKey.startsWith(row.prefix)).toBe(true);
    expect(JSON.stringify(await listApiKeys(app.db, ws.workspaceId))).not.toContain(ws.apiKey);
  });

  it("accepts Bearer and X-API-Key and records the last use", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    expect((await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey })).status).toBe(200);
    expect((await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey, keyHeader: "x-api-key" })).status).toBe(
      200,
    );
    await new Promise((r) => setTimeout(r, 100));
    const row = await app.db.apiKey.findUniqueOrThrow({ where: { id: ws.apiKeyId } });
    expect(row.lastUsedAt).not.toBeNull();
  });

  it("refuses a key beyond the plan's limit with 409 KEY_LIMIT_REACHED", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    await expect(createApiKey(app.db, { workspaceId: ws.workspaceId })).rejects.toMatchObject({
      appCode: "KEY_LIMIT_REACHED",
      status: 409,
    });
  });

  it("pauses keys beyond the limit on downgrade (oldest stay active) and resumes them on upgrade", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const k2 = await createApiKey(app.db, { workspaceId: ws.workspaceId, name: "second" });
    const k3 = await createApiKey(app.db, { workspaceId: ws.workspaceId, name: "third" });
    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["free"] });
    const statuses = Object.fromEntries((await listApiKeys(app.db, ws.workspaceId)).map((k) => [k.id, k.status]));
    expect(statuses).toEqual({ [ws.apiKeyId]: "active", [k2.key.id]: "paused", [k3.key.id]: "paused" });

    const paused = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: k3.plaintext });
    expect(paused.status).toBe(403);
    expect(paused.body.error.code).toBe("API_KEY_PAUSED");
    expect((await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey })).status).toBe(200);

    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["suite_starter"] });
    expect((await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: k3.plaintext })).status).toBe(200);
  });

  it("gives a revoked active key's place to the oldest paused key, which resumes (oldest-first inclusion)", async () => {
    // A Free workspace downgraded from two keys revoked its one active key (a leak): the paused key stayed paused
    // (403 API_KEY_PAUSED) and a new key was refused 409 KEY_LIMIT_REACHED, so it had no key that worked at all.
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const k2 = await createApiKey(app.db, { workspaceId: ws.workspaceId, name: "second" });
    const k3 = await createApiKey(app.db, { workspaceId: ws.workspaceId, name: "third" });
    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["free"] });
    expect((await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: k2.plaintext })).body.error.code).toBe(
      "API_KEY_PAUSED",
    );
    const actor = { kind: "user" as const, userId: "usr_revoker", email: "owner@keys.test" };
    await revokeApiKeyOrThrow(app.db, { keyId: ws.apiKeyId, workspaceId: ws.workspaceId, actor });
    const statuses = Object.fromEntries((await listApiKeys(app.db, ws.workspaceId)).map((k) => [k.id, k.status]));
    expect(statuses).toEqual({ [ws.apiKeyId]: "revoked", [k2.key.id]: "active", [k3.key.id]: "paused" });
    expect((await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: k2.plaintext })).status).toBe(200);
    expect((await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: k3.plaintext })).status).toBe(403);
    const resumed = await app.db.event.findFirstOrThrow({
      where: { workspaceId: ws.workspaceId, type: "audit.key.resumed" },
    });
    expect(resumed.data).toMatchObject({ target: { id: k2.key.id }, before: { status: "paused" } });
    // Revoking a paused key frees no active place: nothing else changes.
    await revokeApiKeyOrThrow(app.db, { keyId: k3.key.id, workspaceId: ws.workspaceId });
    expect((await app.db.apiKey.findUniqueOrThrow({ where: { id: k2.key.id } })).status).toBe("active");
  });

  it("a revocation pauses no key: keys beyond the limit for another reason are the plan change's to pause", async () => {
    // The plans changed without the key limit applied yet (a subscription that lapsed, before its job runs): three
    // active keys on a one-key plan. Revoking one must not pause another in the revoker's name.
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const k2 = await createApiKey(app.db, { workspaceId: ws.workspaceId, name: "second" });
    const k3 = await createApiKey(app.db, { workspaceId: ws.workspaceId, name: "third" });
    await app.db.subscription.updateMany({ where: { workspaceId: ws.workspaceId }, data: { plan: "free" } });
    await revokeApiKeyOrThrow(app.db, { keyId: k3.key.id, workspaceId: ws.workspaceId });
    const statuses = Object.fromEntries((await listApiKeys(app.db, ws.workspaceId)).map((k) => [k.id, k.status]));
    expect(statuses).toEqual({ [ws.apiKeyId]: "active", [k2.key.id]: "active", [k3.key.id]: "revoked" });
    expect(await app.db.event.count({ where: { workspaceId: ws.workspaceId, type: "audit.key.paused" } })).toBe(0);
  });

  it("revokes a key whose status a plan change moved between the revocation's first read and its transaction", async () => {
    // A leaked key revoked while a downgrade pauses it: the revocation read "active", the downgrade paused the key,
    // and the revocation's update (conditional on "active") changed nothing: 200, and the key came back usable at the
    // next upgrade. The status is now read again under the workspace's lock. The interleaving is made by running the
    // downgrade just before the revocation's transaction on the same database.
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const k2 = await createApiKey(app.db, { workspaceId: ws.workspaceId, name: "leaked" });
    let downgraded = false;
    const interleaved = new Proxy(app.db, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop !== "$transaction" || downgraded) return typeof value === "function" ? value.bind(target) : value;
        return async (...args: unknown[]) => {
          downgraded = true;
          await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["free"] });
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    expect((await app.db.apiKey.findUniqueOrThrow({ where: { id: k2.key.id } })).status).toBe("active");
    const revoked = await revokeApiKeyOrThrow(interleaved, { keyId: k2.key.id, workspaceId: ws.workspaceId });
    expect(downgraded).toBe(true);
    expect(revoked.status).toBe("revoked");
    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["suite_starter"] });
    expect((await app.db.apiKey.findUniqueOrThrow({ where: { id: k2.key.id } })).status).toBe("revoked");
    expect((await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: k2.plaintext })).status).toBe(401);
  });

  it("keeps a revoked key revoked through any plan change", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const k2 = await createApiKey(app.db, { workspaceId: ws.workspaceId });
    await revokeApiKeyOrThrow(app.db, { keyId: k2.key.id, workspaceId: ws.workspaceId });
    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["free"] });
    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["lookups_growth"] });
    await applyKeyLimit(app.db, ws.workspaceId);
    const res = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: k2.plaintext });
    expect(res.status).toBe(401);
    const row = await app.db.apiKey.findUniqueOrThrow({ where: { id: k2.key.id } });
    expect(row.status).toBe("revoked");
  });

  it("answers another workspace's key as not found when revoking", async () => {
    const a = await app.seedWorkspace({ plans: ["free"] });
    const b = await app.seedWorkspace({ plans: ["free"] });
    await expect(revokeApiKeyOrThrow(app.db, { keyId: b.apiKeyId, workspaceId: a.workspaceId })).rejects.toMatchObject({
      appCode: "NOT_FOUND",
    });
    expect((await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: b.apiKey })).status).toBe(200);
  });

  it("never lets a header select another workspace for a key", async () => {
    const a = await app.seedWorkspace({ plans: ["free"] });
    const b = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/ip/8.8.8.8/geo", {
      key: a.apiKey,
      headers: { "X-Service-Workspace": b.workspaceId, Cookie: `svc_workspace=${b.workspaceId}` },
    });
    expect(res.status).toBe(200);
    expect(await app.used(a.workspaceId)).toBe(1);
    expect(await app.used(b.workspaceId)).toBe(0);
  });

  it("rejects keys configured in the environment (no global keys exist)", async () => {
    const legacy = "svc_live_" + "L".repeat(43);
    for (const name of ["SERVICE_API_KEY", "API_KEY", "SERVICE_MASTER_KEY"]) process.env[name] = legacy;
    const res = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: legacy });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("UNAUTHORIZED");
  });
});

describe("key limit under concurrency", () => {
  it("parallel creations never pass the plan's key limit", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] }); // 3 keys, 1 already held
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => createApiKey(app.db, { workspaceId: ws.workspaceId })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    for (const r of results.filter((x) => x.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ appCode: "KEY_LIMIT_REACHED" });
    }
    expect(await app.db.apiKey.count({ where: { workspaceId: ws.workspaceId } })).toBe(3);
  });
});

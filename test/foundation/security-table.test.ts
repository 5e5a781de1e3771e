// One security table, run against every /v1 route (STYLE.md): no key, bad key, paused, revoked, wrong plan,
// forbidden origin, wrong plan for webhooks. Every refusal has the exact status and body, consumes nothing, and is
// one of the codes the route's contract declares (so the OpenAPI document lists it).
import { beforeAll, describe, expect, it } from "vitest";
import { setPlans } from "../../server/workspaces/workspaces";
import { createApiKey, revokeApiKeyOrThrow } from "../../server/keys/keys";
import { createTestApp, type TestApp } from "../harness";
import { routeSamples } from "./route-samples";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const samples = routeSamples();

const declared = (s: { errors: string[] }, res: { body: any }) => expect(s.errors).toContain(res.body.error.code);

describe.each(samples.map((s) => [`${s.method} ${s.route.template}`, s] as const))("%s", (_name, s) => {
  if (s.keyOptional) {
    it("serves a caller without a key anonymously", async () => {
      const res = await app.request(s.method, s.path, { body: s.body });
      expect(res.status).not.toBe(401);
      expect(res.status).toBeLessThan(500);
    });
  } else {
    it("refuses a missing key with 401 UNAUTHORIZED", async () => {
      const res = await app.request(s.method, s.path, { body: s.body });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String) } });
      declared(s, res);
    });
  }

  it.each([
    ["an unknown key", "svc_live_" + "A".repeat(43)],
    ["a malformed key", "not-a-key"],
    ["an empty bearer", ""],
  ])("refuses %s with 401 UNAUTHORIZED", async (_label, key) => {
    const res = await app.request(s.method, s.path, { body: s.body, key });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("UNAUTHORIZED");
  });

  it("refuses a revoked key with 401 and a paused key with 403 API_KEY_PAUSED, consuming nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["lookups_growth"] });
    const second = await createApiKey(app.db, { workspaceId: ws.workspaceId });
    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["free"] }); // limit 1: the newer key pauses
    const paused = await app.request(s.method, s.path, { body: s.body, key: second.plaintext });
    expect(paused.status).toBe(403);
    expect(paused.body).toEqual({ error: { code: "API_KEY_PAUSED", message: expect.any(String) } });
    declared(s, paused);

    await revokeApiKeyOrThrow(app.db, { keyId: ws.apiKeyId });
    const revoked = await app.request(s.method, s.path, { body: s.body, key: ws.apiKey });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe("UNAUTHORIZED");
    expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("refuses a forbidden browser origin with 403 ORIGIN_FORBIDDEN before doing any work", async () => {
    const ws = await app.seedWorkspace({ plans: ["lookups_growth"] });
    const res = await app.request(s.method, s.path, {
      body: s.body,
      key: ws.apiKey,
      headers: { Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: { code: "ORIGIN_FORBIDDEN", message: expect.any(String) } });
    declared(s, res);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  if (s.webhooks) {
    it("refuses plans without webhooks with 403 CAPABILITY_REQUIRED, consuming nothing", async () => {
      for (const plan of ["free", "suite_business", "lookups_developer"]) {
        const ws = await app.seedWorkspace({ plans: [plan] });
        const res = await app.request(s.method, s.path, { body: s.body, key: ws.apiKey });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: { code: "CAPABILITY_REQUIRED", message: expect.any(String) } });
        declared(s, res);
        expect(await app.used(ws.workspaceId)).toBe(0);
      }
    });
  }

  if (s.capability === "full") {
    it("refuses the Free and Paid Email plans with 403 CAPABILITY_REQUIRED, consuming nothing", async () => {
      for (const plan of ["free", "email"]) {
        const ws = await app.seedWorkspace({ plans: [plan] });
        const res = await app.request(s.method, s.path, { body: s.body, key: ws.apiKey });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: { code: "CAPABILITY_REQUIRED", message: expect.any(String) } });
        declared(s, res);
        expect(await app.used(ws.workspaceId)).toBe(0);
        expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
      }
    });
  }

  if (s.metered) {
    it("refuses with 402 QUOTA_EXCEEDED when the allowance is exhausted, consuming nothing", async () => {
      const ws = await app.seedWorkspace({ plans: ["lookups_growth"], usedUnits: 250_000 });
      const res = await app.request(s.method, s.path, { body: s.body, key: ws.apiKey });
      expect([402, 400]).toContain(res.status); // 400 only when the sample input is itself refused first
      if (res.status === 402)
        expect(res.body).toEqual({ error: { code: "QUOTA_EXCEEDED", message: expect.any(String) } });
      declared(s, res);
      expect(await app.used(ws.workspaceId)).toBe(250_000);
      expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
    });
  }
});

it("covers at least the geolocation route", () => {
  expect(samples.some((s) => s.route.template === "/ip/{ip}/geo")).toBe(true);
});

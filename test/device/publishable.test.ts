// Publishable keys (pk_live_…) for /device.js in direct mode: created by an owner with a list of web origins, they
// may call only POST /v1/device/check, only from a page whose Origin is listed (the CORS preflight is answered for
// those origins only), at most SERVICE_PUBLISHABLE_RATE_LIMIT times per client IP and window; an accepted check costs
// 1 unit like a secret key's, and every refusal costs nothing. Secret keys keep working as before.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { createApiKey, listApiKeys } from "../../server/keys/keys";
import { rateLimitSubject } from "../../server/keys/publishable";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { createTestApp, type TestApp } from "../harness";
import { humanChrome } from "./signals";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterEach(() => {
  delete process.env.SERVICE_PUBLISHABLE_RATE_LIMIT;
  delete process.env.SERVICE_PUBLISHABLE_RATE_WINDOW_SECONDS;
  delete process.env.SERVICE_TRUST_PROXY;
  delete process.env.SERVICE_ALLOWED_ORIGINS;
});

let n = 0;
const SHOP = "https://shop.example.test";

async function withPublishableKey(origins = [SHOP, "http://127.0.0.1:8080"]) {
  const ws = await app.seedWorkspace();
  const pk = await createApiKey(app.db, { workspaceId: ws.workspaceId, kind: "publishable", allowedOrigins: origins });
  return { ...ws, pk: pk.plaintext, pkId: pk.key.id };
}

const checkFrom = (key: string, origin: string | null, extra: Record<string, string> = {}) =>
  app.request("POST", "/v1/device/check", {
    key,
    body: { device: humanChrome(`pkvisitor${String(++n).padStart(6, "0")}`) },
    headers: { ...(origin ? { Origin: origin } : {}), ...extra },
  });

const preflight = (origin: string, path = "/v1/device/check", method = "POST") =>
  app.request("OPTIONS", path, {
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": method,
      "Access-Control-Request-Headers": "authorization, content-type",
    },
  });

describe("creating a publishable key", () => {
  it("is pk_live_…, shown once, stored hashed, with its normalised origins; the list shows kind and origins", async () => {
    const ws = await app.seedWorkspace();
    const { key, plaintext } = await createApiKey(app.db, {
      workspaceId: ws.workspaceId,
      kind: "publishable",
      allowedOrigins: ["https://Shop.Example.test/", "http://127.0.0.1:8080"],
    });
    expect(plaintext).toMatch(/^pk_live_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatchObject({
      kind: "publishable",
      allowedOrigins: ["https://shop.example.test", "http://127.0.0.1:8080"],
      prefix: plaintext.slice(0, 12),
      name: "Publishable key",
    });
    const row = await app.db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.hash).not.toContain(plaintext.slice(8));
    const listed = await listApiKeys(app.db, ws.workspaceId);
    expect(listed.map((k) => [k.kind, k.allowedOrigins])).toEqual([
      ["secret", []],
      ["publishable", ["https://shop.example.test", "http://127.0.0.1:8080"]],
    ]);
  });

  it("refuses a publishable key without origins, with something that is not an origin, and origins on a secret key", async () => {
    const ws = await app.seedWorkspace();
    for (const allowedOrigins of [
      [],
      ["shop.example.test"],
      ["https://shop.example.test/checkout"],
      ["javascript:alert(1)"],
      ["https://user:pw@shop.example.test"],
    ]) {
      await expect(
        createApiKey(app.db, { workspaceId: ws.workspaceId, kind: "publishable", allowedOrigins }),
      ).rejects.toMatchObject({ appCode: "INVALID_REQUEST", status: 400 });
    }
    await expect(
      createApiKey(app.db, { workspaceId: ws.workspaceId, kind: "secret", allowedOrigins: [SHOP] }),
    ).rejects.toMatchObject({ appCode: "INVALID_REQUEST", status: 400 });
    expect(await app.db.apiKey.count({ where: { workspaceId: ws.workspaceId } })).toBe(1);
  });

  it("the dashboard's createKey makes one for an owner, and the key list shows its kind and origins", async () => {
    const user = await ensureUser(app.db, { email: `pk-owner-${Date.now()}@example.test` });
    const ws = await createWorkspace(app.db, {
      name: "pk",
      plans: ["suite_starter"],
      ownerEmail: user.email,
      ownerUserId: user.id,
    });
    const call = (path: string, body?: unknown) =>
      handleDashboardRequest(
        new Request(`http://127.0.0.1:3000/api/trpc/${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: {
            "content-type": "application/json",
            origin: "http://127.0.0.1:3000",
            "x-service-workspace": ws.workspaceId,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        async () => ({ userId: user.id, email: user.email, name: null }),
      );
    const bad = await call("account.createKey", { name: "web", kind: "publishable", allowedOrigins: [] });
    expect(bad.status).toBe(400);
    const res = await call("account.createKey", { name: "web", kind: "publishable", allowedOrigins: [SHOP] });
    expect(res.status).toBe(200);
    const created = ((await res.json()) as any).result.data;
    expect(created.plaintext).toMatch(/^pk_live_/);
    const list = ((await (await call("account.keys")).json()) as any).result.data;
    expect(list.find((k: any) => k.id === created.key.id)).toMatchObject({
      kind: "publishable",
      allowedOrigins: [SHOP],
    });
  });
});

describe("using a publishable key", () => {
  it("from an allowed origin: a diagnosis, CORS headers for that origin, and 1 unit charged", async () => {
    const ws = await withPublishableKey();
    const res = await checkFrom(ws.pk, SHOP);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ device_id: expect.stringMatching(/^dev_/), automation: { verdict: "human" } });
    expect(res.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(res.headers.get("x-service-quota-used")).toBe("1");
    expect(await app.used(ws.workspaceId)).toBe(1);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(1);
    const ledger = await app.db.usageLedger.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
    expect(ledger.apiKeyId).toBe(ws.pkId);
  });

  it("the preflight is answered for the key's origins only", async () => {
    await withPublishableKey();
    const ok = await preflight(SHOP);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(ok.headers.get("access-control-allow-methods")).toBe("POST");
    const other = await preflight("https://evil.example.test");
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe("ORIGIN_FORBIDDEN");
    // A listed origin opens no other route.
    const elsewhere = await preflight(SHOP, "/v1/ip/8.8.8.8", "GET");
    expect(elsewhere.status).toBe(403);
  });

  it("from another origin, or with no Origin at all (a server), it is refused and nothing is charged", async () => {
    const ws = await withPublishableKey();
    const other = await checkFrom(ws.pk, "https://evil.example.test");
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe("ORIGIN_FORBIDDEN");
    // An origin another workspace's publishable key lists passes CORS, but not this key's own list.
    const { pk: otherPk } = await withPublishableKey(["https://elsewhere.example.test"]);
    const crossed = await checkFrom(otherPk, SHOP);
    expect(crossed.status).toBe(403);
    expect(crossed.body.error).toEqual({
      code: "ORIGIN_FORBIDDEN",
      message: `The origin ${SHOP} is not one of this publishable key's allowed origins.`,
    });
    const server = await checkFrom(ws.pk, null);
    expect(server.status).toBe(403);
    expect(server.body.error.code).toBe("ORIGIN_FORBIDDEN");
    expect(server.body.error.message).toMatch(/no Origin/);
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.db.deviceObservation.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("on any other route it is 403 FORBIDDEN (a valid key, not allowed there), even from its own origin, and charges nothing", async () => {
    const ws = await withPublishableKey();
    for (const [method, path, body] of [
      ["GET", "/v1/ip/8.8.8.8", undefined],
      ["POST", "/v1/assess", { ip: "8.8.8.8" }],
      ["POST", "/v1/scans", { url: "example.com" }],
      ["GET", "/v1/rules", undefined],
    ] as const) {
      for (const origin of [SHOP, null]) {
        const res = await app.request(method, path, { key: ws.pk, body, headers: origin ? { Origin: origin } : {} });
        // From the page's origin the REST API's own CORS rule refuses first (the origin is listed only for the device check).
        if (origin)
          expect([res.status, res.body.error.code], `${method} ${path} from ${origin}`).toEqual([
            403,
            "ORIGIN_FORBIDDEN",
          ]);
        else expect([res.status, res.body.error.code], `${method} ${path}`).toEqual([403, "FORBIDDEN"]);
      }
    }
    // With the shop listed in SERVICE_ALLOWED_ORIGINS the CORS gate opens; the key is still refused.
    process.env.SERVICE_ALLOWED_ORIGINS = SHOP;
    const res = await app.request("GET", "/v1/ip/8.8.8.8", { key: ws.pk, headers: { Origin: SHOP } });
    expect([res.status, res.body.error.code]).toEqual([403, "FORBIDDEN"]);
    expect(res.body.error.message).toMatch(/only POST \/v1\/device\/check/);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("is rate-limited per client IP: 429 with Retry-After, nothing charged; another IP still passes", async () => {
    process.env.SERVICE_PUBLISHABLE_RATE_LIMIT = "2";
    // An hour-long fixed window: a minute boundary passing between two requests of a slow run cannot reset it.
    process.env.SERVICE_PUBLISHABLE_RATE_WINDOW_SECONDS = "3600";
    process.env.SERVICE_TRUST_PROXY = "1";
    const ws = await withPublishableKey();
    const from = (ip: string) => checkFrom(ws.pk, SHOP, { "X-Forwarded-For": ip });
    expect((await from("198.51.100.7")).status).toBe(200);
    expect((await from("198.51.100.7")).status).toBe(200);
    const limited = await from("198.51.100.7");
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await app.used(ws.workspaceId)).toBe(2);
    expect((await from("198.51.100.8")).status).toBe(200);
    expect(await app.used(ws.workspaceId)).toBe(3);
  });

  it("counts an IPv6 visitor by its /64: rotating addresses inside one /64 do not get fresh buckets", async () => {
    process.env.SERVICE_PUBLISHABLE_RATE_LIMIT = "2";
    // An hour-long fixed window: a minute boundary passing between two requests of a slow run cannot reset it.
    process.env.SERVICE_PUBLISHABLE_RATE_WINDOW_SECONDS = "3600";
    process.env.SERVICE_TRUST_PROXY = "1";
    const ws = await withPublishableKey();
    const from = (ip: string) => checkFrom(ws.pk, SHOP, { "X-Forwarded-For": ip });
    expect((await from("2001:db8:1:2::1")).status).toBe(200);
    expect((await from("2001:db8:1:2::abcd")).status).toBe(200);
    expect((await from("2001:db8:1:2:ffff::7")).status).toBe(429);
    expect((await from("2001:db8:1:3::1")).status).toBe(200);
    expect(rateLimitSubject("2001:db8:1:2:ffff::7")).toBe("2001:db8:1:2::/64");
    expect(rateLimitSubject("198.51.100.7")).toBe("198.51.100.7");
    expect(rateLimitSubject(null)).toBe("unknown");
  });

  it("compares the time zone with the connection's address, never an `ip` the page sends", async () => {
    process.env.SERVICE_TRUST_PROXY = "1";
    const ws = await withPublishableKey();
    const res = await app.request("POST", "/v1/device/check", {
      key: ws.pk,
      body: { device: humanChrome("pkvisitoripchoice"), ip: "8.8.8.8" },
      headers: { Origin: SHOP, "X-Forwarded-For": "198.51.100.9" },
    });
    expect(res.status).toBe(200);
    const secret = await app.request("POST", "/v1/device/check", {
      key: ws.apiKey,
      body: { device: humanChrome("pkvisitoripchoice2"), ip: "8.8.8.8" },
    });
    expect(secret.status).toBe(200);
    const zone = (body: any) => body.consistency.find((c: any) => c.check === "timezone_vs_ip");
    // A secret key's `ip` (from the customer's server) is compared: 8.8.8.8 is located in Mountain View. A
    // publishable key's is not: the connection's (a documentation address, with no location) is.
    expect(zone(secret.body).reason).toContain("Mountain View");
    expect(zone(res.body).reason).not.toContain("Mountain View");
    expect(zone(res.body).result).not.toBe("pass");
  });

  it("a revoked publishable key is 401; a malformed pk_ is 401", async () => {
    const ws = await withPublishableKey();
    await app.db.apiKey.update({ where: { id: ws.pkId }, data: { status: "revoked" } });
    expect((await checkFrom(ws.pk, SHOP)).status).toBe(401);
    expect((await checkFrom("pk_live_short", SHOP)).status).toBe(401);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

describe("secret keys are unchanged", () => {
  it("from a server (no Origin) they call every route; from an unlisted page they are refused as before", async () => {
    const ws = await withPublishableKey();
    const server = await checkFrom(ws.apiKey, null);
    expect(server.status).toBe(200);
    expect((await app.request("GET", "/v1/rules", { key: ws.apiKey })).status).toBe(200);
    // The shop's origin opens the device check's CORS gate for its publishable key, never for a secret key.
    const fromPage = await checkFrom(ws.apiKey, SHOP);
    expect(fromPage.status).toBe(403);
    expect(fromPage.body.error.code).toBe("ORIGIN_FORBIDDEN");
    expect(await app.used(ws.workspaceId)).toBe(1);
  });
});

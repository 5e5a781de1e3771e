import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
const ALLOWED = "https://app.customer.example";
beforeAll(async () => {
  process.env.SERVICE_ALLOWED_ORIGINS = `${ALLOWED}, https://other.example, https://Shop.Example.com:443/, https://bücher.example`;
  app = await createTestApp();
});
afterAll(() => {
  delete process.env.SERVICE_ALLOWED_ORIGINS;
});

const preflight = (path: string, origin: string, method: string, headers?: string) =>
  app.request("OPTIONS", path, {
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": method,
      ...(headers ? { "Access-Control-Request-Headers": headers } : {}),
    },
  });

describe("CORS", () => {
  it("answers a preflight from a listed origin for a registered route with the allowed headers", async () => {
    const res = await preflight("/v1/ip/8.8.8.8/geo", ALLOWED, "GET", "authorization, x-api-key");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(res.headers.get("access-control-allow-methods")).toBe("GET");
    expect(res.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type, X-API-Key, Accept");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  // Listed items were compared as written (lower-cased): a default port or an IDN host never equalled the Origin a
  // browser sends. They are read in one form with publishable keys' allowed origins (server/env/web-origin.ts).
  it("reads a listed origin as a browser sends it: no default port, an IDN host in its ASCII form", async () => {
    for (const origin of ["https://shop.example.com", "https://xn--bcher-kva.example"]) {
      const res = await preflight("/v1/ip/8.8.8.8/geo", origin, "GET");
      expect(res.status, origin).toBe(204);
      expect(res.headers.get("access-control-allow-origin"), origin).toBe(origin);
    }
  });

  it("refuses a preflight from an unlisted origin with 403 ORIGIN_FORBIDDEN", async () => {
    const res = await preflight("/v1/ip/8.8.8.8/geo", "https://evil.example", "GET");
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: { code: "ORIGIN_FORBIDDEN", message: expect.any(String) } });
  });

  it("refuses a preflight asking for another request header with 403 ORIGIN_FORBIDDEN", async () => {
    const res = await preflight("/v1/ip/8.8.8.8/geo", ALLOWED, "GET", "authorization, x-service-workspace");
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("ORIGIN_FORBIDDEN");
  });

  it("refuses a preflight for an unregistered route or method with 404 LOOKUP_NOT_FOUND", async () => {
    expect((await preflight("/v1/ip/8.8.8.8/geo", ALLOWED, "DELETE")).body.error.code).toBe("LOOKUP_NOT_FOUND");
    expect((await preflight("/v1/nowhere", ALLOWED, "GET")).status).toBe(404);
  });

  // A request no preflight guards (no Authorization header) to a path or method no route takes: a listed origin can
  // read the 404's words; it could not, so browser code saw only a network error.
  it("lets a listed origin read a 404 for a path no route takes, and an unlisted one not", async () => {
    const listed = await app.request("GET", "/v1/nowhere", { headers: { Origin: ALLOWED } });
    expect(listed.status).toBe(404);
    expect(listed.body.error.code).toBe("LOOKUP_NOT_FOUND");
    expect(listed.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    const unlisted = await app.request("GET", "/v1/nowhere", { headers: { Origin: "https://evil.example" } });
    expect(unlisted.status).toBe(404);
    expect(unlisted.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("lets a listed origin read the quota headers, and a preflight authorizes nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    await preflight("/v1/ip/8.8.8.8/geo", ALLOWED, "GET", "authorization");
    expect(await app.used(ws.workspaceId)).toBe(0);
    const noKey = await app.request("GET", "/v1/ip/8.8.8.8/geo", { headers: { Origin: ALLOWED } });
    expect(noKey.status).toBe(401);
    const res = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey, headers: { Origin: ALLOWED } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(res.headers.get("access-control-expose-headers")).toContain("X-Service-Quota-Remaining");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("refuses an actual request from an unlisted origin with 403 and consumes nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/ip/8.8.8.8/geo", {
      key: ws.apiKey,
      headers: { Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("ORIGIN_FORBIDDEN");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("leaves server-to-server calls without Origin unaffected", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

// POST /v1/captcha/test against a local server playing a provider's siteverify API.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
let server: http.Server;
const seen: URLSearchParams[] = [];
let mode: "ok" | "down" = "ok";

beforeAll(async () => {
  app = await createTestApp();
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const form = new URLSearchParams(raw);
      seen.push(form);
      if (mode === "down") {
        res.writeHead(502).end();
        return;
      }
      const token = form.get("response");
      const body =
        form.get("secret") !== "site-secret"
          ? { success: false, "error-codes": ["invalid-input-secret"] }
          : token === "good"
            ? {
                success: true,
                hostname: "shop.example",
                challenge_ts: "2026-11-22T10:00:00Z",
                action: "login",
                score: 0.3,
              }
            : { success: false, "error-codes": ["timeout-or-duplicate"] };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  process.env.SERVICE_CAPTCHA_TURNSTILE_VERIFY_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
});
afterAll(() => server.close());

describe("POST /v1/captcha/test", () => {
  it("verifies a token, checks the expectations and costs one unit", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await app.request("POST", "/v1/captcha/test", {
      key: ws.apiKey,
      body: {
        provider: "turnstile",
        token: "good",
        secret: "site-secret",
        remote_ip: "203.0.113.9",
        expected_hostname: "shop.example",
        expected_action: "signup",
        min_score: 0.5,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      provider: "turnstile",
      success: true,
      valid: false,
      hostname: "shop.example",
      action: "login",
      score: 0.3,
      checks: { hostname_match: true, action_match: false, score_passes: false, secret_supplied: true },
    });
    expect(res.body.findings).toEqual(
      expect.arrayContaining([
        expect.stringContaining("not signup"),
        expect.stringContaining("below the required 0.5"),
      ]),
    );
    expect(seen.at(-1)?.get("remoteip")).toBe("203.0.113.9");
    expect(res.headers.get("x-service-quota-used")).toBe("1");
  });

  it("explains provider error codes, and also answers on the spec's literal /v1/captcha/test spelling", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await app.request("POST", "/v1/v1/captcha/test", {
      key: ws.apiKey,
      body: { provider: "turnstile", token: "used", secret: "site-secret" },
    });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.error_codes).toEqual(["timeout-or-duplicate"]);
    expect(res.body.findings[0]).toMatch(/single-use/);
  });

  it("uses the configured secret when none is sent", async () => {
    process.env.SERVICE_CAPTCHA_TURNSTILE_SECRET = "site-secret";
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await app.request("POST", "/v1/captcha/test", {
      key: ws.apiKey,
      body: { provider: "turnstile", token: "good" },
    });
    delete process.env.SERVICE_CAPTCHA_TURNSTILE_SECRET;
    expect(res.body).toMatchObject({ valid: true, checks: { secret_supplied: true } });
  });

  it("refuses bad input and the Free plan without consuming units", async () => {
    const paid = await app.seedWorkspace({ plans: ["suite_starter"] });
    for (const body of [
      { provider: "captchaX", token: "t" },
      { provider: "turnstile" },
      { provider: "turnstile", token: "t", min_score: 2 },
    ]) {
      const res = await app.request("POST", "/v1/captcha/test", { key: paid.apiKey, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
    }
    const free = await app.seedWorkspace({ plans: ["free"] });
    const denied = await app.request("POST", "/v1/captcha/test", {
      key: free.apiKey,
      body: { provider: "turnstile", token: "good" },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("CAPABILITY_REQUIRED");
    expect(await app.used(paid.workspaceId)).toBe(0);
    expect(await app.used(free.workspaceId)).toBe(0);
  });

  it("answers 503 when the provider is down, and the admitted attempt's unit is given back", async () => {
    mode = "down";
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await app.request("POST", "/v1/captcha/test", {
      key: ws.apiKey,
      body: { provider: "turnstile", token: "good", secret: "site-secret" },
    });
    mode = "ok";
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

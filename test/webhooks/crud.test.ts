// Webhook management through the REST API: exact statuses and bodies, the secret shown once, plan checks,
// tenant isolation, validation and the SSRF guard. Unmetered: no units, no quota headers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { startWebhookReceiver, type WebhookReceiver } from "../fakes/webhook-receiver";

let app: TestApp;
let rx: WebhookReceiver;
const saved = { ...process.env };
beforeAll(async () => {
  process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
  app = await createTestApp();
  rx = await startWebhookReceiver();
});
afterAll(async () => {
  await rx.close();
  process.env = saved;
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const body = (over: Record<string, unknown> = {}) => ({
  name: "Fraud alerts",
  url: rx.url,
  event_types: ["high_risk_assessment"],
  ...over,
});

async function agency() {
  return app.seedWorkspace({ plans: ["suite_agency"] });
}

describe("POST /v1/webhooks", () => {
  it("creates a webhook and shows the signing secret only in this response, consuming nothing", async () => {
    const ws = await agency();
    const res = await app.request("POST", "/v1/webhooks", { key: ws.apiKey, body: body() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^wh_/),
      name: "Fraud alerts",
      url: rx.url,
      event_types: ["high_risk_assessment"],
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
    });
    expect(Buffer.from(res.body.secret.slice(6), "base64")).toHaveLength(24);
    expect(res.headers.get("x-service-quota-used")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(0);

    const list = await app.request("GET", "/v1/webhooks", { key: ws.apiKey });
    expect(list.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = res.body;
    expect(list.body).toEqual({ items: [withoutSecret] });
    expect(list.text).not.toContain(res.body.secret.slice(6));
  });

  it("also works on Lookups Growth", async () => {
    const ws = await app.seedWorkspace({ plans: ["lookups_growth"] });
    expect((await app.request("POST", "/v1/webhooks", { key: ws.apiKey, body: body() })).status).toBe(200);
  });

  it.each([
    ["a missing name", { name: undefined }],
    ["an empty name", { name: "  " }],
    ["a missing url", { url: undefined }],
    ["a url that is not a URL", { url: "not a url" }],
    ["an ftp url", { url: "ftp://example.com/hook" }],
    ["a url with credentials", { url: "https://user:pw@example.com/hook" }],
    ["an unknown event type", { event_types: ["low_risk_assessment"] }],
    ["no event types", { event_types: [] }],
    ["event_types as a string", { event_types: "high_risk_assessment" }],
  ])("refuses %s with 400 INVALID_REQUEST", async (_label, over) => {
    const ws = await agency();
    const res = await app.request("POST", "/v1/webhooks", { key: ws.apiKey, body: body(over) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "INVALID_REQUEST", message: expect.any(String) } });
    expect((await app.request("GET", "/v1/webhooks", { key: ws.apiKey })).body).toEqual({ items: [] });
  });

  it("refuses a plain http url unless private targets are allowed (tests, local development)", async () => {
    const ws = await agency();
    delete process.env.SERVICE_ALLOW_PRIVATE_TARGETS;
    try {
      const res = await app.request("POST", "/v1/webhooks", {
        key: ws.apiKey,
        body: body({ url: "http://example.com/hook" }),
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: "INVALID_REQUEST", message: "url: must start with https://." } });
      const loopback = await app.request("POST", "/v1/webhooks", {
        key: ws.apiKey,
        body: body({ url: "https://127.0.0.1/hook" }),
      });
      expect(loopback.status).toBe(400);
      expect(loopback.body.error.code).toBe("TARGET_FORBIDDEN");
    } finally {
      process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    }
  });

  it.each([
    "http://169.254.169.254/latest/meta-data/",
    "https://169.254.169.254/",
    "http://metadata.google.internal/hook",
  ])(
    "refuses the cloud-metadata target %s with 400 TARGET_FORBIDDEN even when private targets are allowed",
    async (url) => {
      const ws = await agency();
      const res = await app.request("POST", "/v1/webhooks", { key: ws.apiKey, body: body({ url }) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: "TARGET_FORBIDDEN", message: expect.stringContaining("metadata") } });
    },
  );

  it("refuses one webhook beyond the workspace limit with 409 CONFLICT", async () => {
    const ws = await agency();
    process.env.SERVICE_WEBHOOK_LIMIT = "2";
    try {
      for (let i = 0; i < 2; i++)
        expect((await app.request("POST", "/v1/webhooks", { key: ws.apiKey, body: body() })).status).toBe(200);
      const res = await app.request("POST", "/v1/webhooks", { key: ws.apiKey, body: body() });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: { code: "CONFLICT", message: expect.stringContaining("maximum of 2 webhooks") },
      });
    } finally {
      delete process.env.SERVICE_WEBHOOK_LIMIT;
    }
  });
});

describe("plan check", () => {
  it.each(["free", "email", "suite_starter", "suite_business", "lookups_developer"])(
    "refuses the %s plan with 403 CAPABILITY_REQUIRED on every webhook route",
    async (plan) => {
      const ws = await app.seedWorkspace({ plans: [plan] });
      const calls: [string, string, unknown?][] = [
        ["POST", "/v1/webhooks", body()],
        ["GET", "/v1/webhooks"],
        ["PATCH", "/v1/webhooks/wh_x", { name: "x" }],
        ["DELETE", "/v1/webhooks/wh_x"],
        ["GET", "/v1/webhooks/wh_x/deliveries"],
      ];
      for (const [method, path, b] of calls) {
        const res = await app.request(method, path, { key: ws.apiKey, body: b });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body).toEqual({
          error: { code: "CAPABILITY_REQUIRED", message: "Webhooks need the Suite Agency or Lookups Growth plan." },
        });
      }
      expect(await app.used(ws.workspaceId)).toBe(0);
    },
  );
});

describe("PATCH and DELETE /v1/webhooks/{id}", () => {
  it("updates any of name, url and event_types, keeping the secret private", async () => {
    const ws = await agency();
    const created = (await app.request("POST", "/v1/webhooks", { key: ws.apiKey, body: body() })).body;
    const res = await app.request("PATCH", `/v1/webhooks/${created.id}`, {
      key: ws.apiKey,
      body: { name: "Renamed", url: `${rx.url}?v=2` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: created.id,
      name: "Renamed",
      url: `${rx.url}?v=2`,
      event_types: ["high_risk_assessment"],
      created_at: created.created_at,
      updated_at: expect.stringMatching(ISO),
    });
    const again = await app.request("PATCH", `/v1/webhooks/${created.id}`, {
      key: ws.apiKey,
      body: { event_types: ["high_risk_assessment"] },
    });
    expect(again.body.name).toBe("Renamed");
  });

  it("refuses an empty update, a bad event type and a metadata url with 400", async () => {
    const ws = await agency();
    const { id } = (await app.request("POST", "/v1/webhooks", { key: ws.apiKey, body: body() })).body;
    const empty = await app.request("PATCH", `/v1/webhooks/${id}`, { key: ws.apiKey, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe("INVALID_REQUEST");
    expect(
      (await app.request("PATCH", `/v1/webhooks/${id}`, { key: ws.apiKey, body: { event_types: ["x"] } })).body.error
        .code,
    ).toBe("INVALID_REQUEST");
    const ssrf = await app.request("PATCH", `/v1/webhooks/${id}`, {
      key: ws.apiKey,
      body: { url: "http://169.254.169.254/" },
    });
    expect(ssrf.status).toBe(400);
    expect(ssrf.body.error.code).toBe("TARGET_FORBIDDEN");
    expect((await app.request("GET", "/v1/webhooks", { key: ws.apiKey })).body.items[0].url).toBe(rx.url);
  });

  it("deletes a webhook and answers { id, deleted: true }, then 404 NOT_FOUND", async () => {
    const ws = await agency();
    const { id } = (await app.request("POST", "/v1/webhooks", { key: ws.apiKey, body: body() })).body;
    const res = await app.request("DELETE", `/v1/webhooks/${id}`, { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, deleted: true });
    expect((await app.request("GET", "/v1/webhooks", { key: ws.apiKey })).body).toEqual({ items: [] });
    const again = await app.request("DELETE", `/v1/webhooks/${id}`, { key: ws.apiKey });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: { code: "NOT_FOUND", message: "No such webhook." } });
  });

  it("answers another workspace's webhook exactly like an unknown id (404 NOT_FOUND) and leaves it untouched", async () => {
    const owner = await agency();
    const intruder = await agency();
    const { id } = (await app.request("POST", "/v1/webhooks", { key: owner.apiKey, body: body() })).body;
    for (const target of [id, "wh_doesnotexist"]) {
      const calls: [string, string, unknown?][] = [
        ["PATCH", `/v1/webhooks/${target}`, { name: "pwned" }],
        ["DELETE", `/v1/webhooks/${target}`],
        ["GET", `/v1/webhooks/${target}/deliveries`],
      ];
      for (const [method, path, b] of calls) {
        const res = await app.request(method, path, { key: intruder.apiKey, body: b });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual({ error: { code: "NOT_FOUND", message: "No such webhook." } });
      }
    }
    expect((await app.request("GET", "/v1/webhooks", { key: intruder.apiKey })).body).toEqual({ items: [] });
    expect(
      (await app.request("GET", "/v1/webhooks", { key: owner.apiKey })).body.items.map((w: any) => [w.id, w.name]),
    ).toEqual([[id, "Fraud alerts"]]);
  });
});

describe("check order", () => {
  it("answers malformed JSON from a plan without webhooks with 403, not 400", async () => {
    const { createTestApp } = await import("../harness");
    const t = await createTestApp();
    const ws = await t.seedWorkspace({ plans: ["suite_business"] });
    const res = await t.request("POST", "/v1/webhooks", { key: ws.apiKey, body: "{bad" });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("CAPABILITY_REQUIRED");
  });
});

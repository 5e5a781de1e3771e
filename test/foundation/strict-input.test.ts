// Strict input on both ways in: a NUL anywhere and a control character in an identifier are 400 INVALID_REQUEST
// after authentication and plan checks and before any unit is reserved; declared free text keeps tabs and line
// breaks. Invalid host names are refused by validation, before the reservation.
import { beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../../server/api/context";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { ensureUser } from "../../server/workspaces/members";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const invalid = { error: { code: "INVALID_REQUEST", message: expect.any(String) } };

async function refusedWithoutCharge(method: string, path: string, body?: unknown) {
  const ws = await app.seedWorkspace({ plans: ["lookups_growth"] });
  const res = await app.request(method, path, { key: ws.apiKey, body });
  expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: invalid });
  expect(await app.used(ws.workspaceId)).toBe(0);
  expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
  return res;
}

describe("a NUL byte in any string input is 400 before any unit", () => {
  it.each([
    ["GET", "/v1/rules/%00"],
    ["PATCH", "/v1/rules/r%00x"],
    ["GET", "/v1/events?query=%00"],
    ["GET", "/v1/lookups/history?cursor=a%00b"],
    ["DELETE", "/v1/webhooks/wh_%00"],
    ["GET", "/v1/webhooks/wh_%00/deliveries"],
    ["GET", "/v1/ip/8.8.8.8%00/geo"],
  ])("%s %s", async (method, path) => {
    await refusedWithoutCharge(method, path, method === "PATCH" ? { name: "x" } : undefined);
  });

  it.each([
    ["/assess", { event: "signup", ip: "8.8.8.8", device_id: "a\u0000b" }],
    ["/assess", { event: "signup", ip: "8.8.8.8", metadata: { note: "free\u0000text" } }],
    [
      "/rules",
      { name: "a\u0000b", action: "block", conditions: [{ field: "ip", op: "cidr", value: "203.0.113.0/24" }] },
    ],
    ["/webhooks", { name: "hook", url: "https://example.com/\u0000", event_types: ["high_risk_assessment"] }],
    ["/blocklists/check", { targets: ["203.0.113.7", "exa\u0000mple.com"] }],
  ])("POST %s with a NUL in the body", async (path, body) => {
    const res = await refusedWithoutCharge("POST", `/v1${path}`, body);
    expect(res.body.error.message).toMatch(/NUL/);
  });
});

describe("control characters in identifiers are 400 before any unit", () => {
  it.each([
    ["GET", "/v1/ip/8.8.8.8%0a/geo"],
    ["GET", "/v1/ip/8.8.8.8%0d/geo"],
    ["GET", "/v1/ip/8.8.8.8%7f/geo"],
    ["GET", "/v1/asn/15169%0a"],
    ["GET", "/v1/email/security?domain=%0aexample.com"],
    ["GET", "/v1/domain/example.com%09"],
    ["GET", "/v1/dns/lookup?domain=example.com%1b&type=A"],
    ["GET", "/v1/host/example.com%0a/status"],
    ["GET", "/v1/events?query=1.2.3.4%0a"],
  ])("%s %s", async (method, path) => {
    await refusedWithoutCharge(method, path);
  });

  it.each([
    ["an IP with a trailing line feed", { event: "signup", ip: "8.8.8.8\n" }],
    ["an email with a tab", { event: "signup", ip: "8.8.8.8", email: "a\t@example.com" }],
    ["a metadata key with a line feed", { event: "signup", ip: "8.8.8.8", metadata: { "a\nb": "x" } }],
    ["a metadata value with an escape character", { event: "signup", ip: "8.8.8.8", metadata: { note: "a\u001bb" } }],
  ])("POST /assess with %s", async (_label, body) => {
    await refusedWithoutCharge("POST", "/v1/assess", body);
  });

  it("still lets the plan checks answer first (spec order)", async () => {
    const free = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("POST", "/v1/assess", {
      key: free.apiKey,
      body: { event: "signup", ip: "8.8.8.8\u0000" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("CAPABILITY_REQUIRED");
    expect((await app.request("GET", "/v1/ip/8.8.8.8%00/geo")).status).toBe(401);
  });
});

describe("free-text fields keep tabs and line breaks", () => {
  it("saves a rule whose name holds a line feed and a tab", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const body = {
      name: "line one\nline\ttwo",
      action: "review",
      conditions: [{ field: "ip", op: "cidr", value: "203.0.113.0/24" }],
    };
    const res = await app.request("POST", "/v1/rules", { key: ws.apiKey, body });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("line one\nline\ttwo");
  });

  it("assesses an event whose metadata values hold line breaks and tabs", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "form", ip: "8.8.8.8", metadata: { note: "first\r\nsecond\tthird" } },
    });
    expect(res.status).toBe(200);
    expect(await app.used(ws.workspaceId)).toBe(1);
  });
});

describe("invalid host names are refused before the reservation", () => {
  it.each(["999.999.999.999", "xn--zz.com", "example.123", "1.2.3.4.5"])("GET /v1/host/%s/status", async (host) => {
    for (const route of ["status", "ssl"]) {
      const ws = await app.seedWorkspace({ plans: ["suite_business"] });
      const res = await app.request("GET", `/v1/host/${host}/${route}`, { key: ws.apiKey });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
      expect(await app.used(ws.workspaceId)).toBe(0);
    }
  });
});

describe("the dashboard refuses the same input", () => {
  const ORIGIN = "http://127.0.0.1:3000";
  let user: SessionUser;
  beforeAll(async () => {
    const u = await ensureUser(app.db, { email: "strict-input@example.test" });
    user = { userId: u.id, email: u.email, name: null };
  });

  async function call(path: string, input: unknown, mutation: boolean) {
    const url = mutation
      ? `${ORIGIN}/api/trpc/${path}`
      : `${ORIGIN}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;
    const init: RequestInit = mutation
      ? { method: "POST", headers: { "content-type": "application/json", origin: ORIGIN }, body: JSON.stringify(input) }
      : {};
    const res = await handleDashboardRequest(new Request(url, init), async () => user);
    return { status: res.status, body: (await res.json()) as any };
  }

  it("refuses a NUL in a workspace name with 400", async () => {
    const r = await call("account.createWorkspace", { name: "Acme\u0000" }, true);
    expect(r.status).toBe(400);
    expect(r.body.error.data.appCode).toBe("INVALID_REQUEST");
  });

  it("refuses an IP with a line feed on a metered lookup without charging", async () => {
    const ws = await createWorkspace(app.db, {
      name: "Dashboard",
      plans: ["suite_business"],
      ownerEmail: user.email,
      ownerUserId: user.userId,
    });
    const r = await call("geo.ipGeo", { ip: "8.8.8.8\n" }, false);
    expect(r.status).toBe(400);
    expect(r.body.error.data.appCode).toBe("INVALID_REQUEST");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

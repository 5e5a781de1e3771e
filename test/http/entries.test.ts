// The one HTTP adapter (server/api/http/respond.ts) on each of the five entries: the REST API (/v1), the
// dashboard's tRPC endpoint (/api/trpc), saved reports, senders and billing. Every answer has an X-Request-Id and
// `Cache-Control: private, no-store`; refusals are the spec's error body; a body over the entry's byte cap is 400
// INVALID_REQUEST and spends nothing; the request's origin follows the one rule (server/http/origin.ts).
import { afterEach, describe, expect, it } from "vitest";
import { handleBillingRequest } from "../../server/api/http/billing";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { handleReportsRequest } from "../../server/api/http/reports";
import { handleSendersRequest } from "../../server/api/http/senders";
import { handleRestRequest } from "../../server/api/rest/handler";
import { brokenUploadAssess } from "./broken-upload";
import type { SessionUser } from "../../server/auth/principal";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { createTestApp } from "../harness";

const ORIGIN = "http://127.0.0.1:3000";
const app = await createTestApp();

afterEach(() => {
  delete process.env.SERVICE_TRUST_PROXY;
});

async function owner(label: string, plans: string[]): Promise<{ user: SessionUser; workspaceId: string }> {
  const u = await ensureUser(app.db, { email: `${label}-${Math.random().toString(36).slice(2, 8)}@entries.test` });
  const user = { userId: u.id, email: u.email, name: null };
  const { workspaceId } = await createWorkspace(app.db, {
    name: label,
    plans,
    ownerEmail: user.email,
    ownerUserId: user.userId,
  });
  return { user, workspaceId };
}

function post(path: string, body: string, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, ...headers },
    body,
  });
}

/** The shared headers, and the body when it is the spec's error body with `code`. */
async function expectShared(res: Response, status: number, code?: string): Promise<any> {
  expect(res.status).toBe(status);
  expect(res.headers.get("x-request-id")).toMatch(/^req_[A-Za-z0-9_-]+$/);
  expect(res.headers.get("cache-control")).toBe("private, no-store");
  const body = await res.json();
  if (code) {
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(body).toEqual({ error: { code, message: expect.any(String) } });
  }
  return body;
}

const big = (bytes: number) => JSON.stringify({ title: "x".repeat(bytes) });

describe("every entry answers with a request id, no-store and the spec's error body", () => {
  it("the REST API", async () => {
    await expectShared(await handleRestRequest(new Request(`${ORIGIN}/v1/no-such-route`)), 404, "LOOKUP_NOT_FOUND");
  });

  it("the dashboard's tRPC endpoint (tRPC's error shape, with the service's code)", async () => {
    const body = await expectShared(
      await handleDashboardRequest(new Request(`${ORIGIN}/api/trpc/account.overview`), async () => null),
      401,
    );
    expect(body.error.data.appCode).toBe("UNAUTHORIZED");
  });

  it("the account routes: reports, senders and billing", async () => {
    const reports = await handleReportsRequest(
      new Request(`${ORIGIN}/api/account/reports`, { method: "PUT", headers: { origin: ORIGIN } }),
      async () => null,
    );
    expect(reports.headers.get("allow")).toBe("GET, POST");
    await expectShared(reports, 404, "LOOKUP_NOT_FOUND");
    await expectShared(
      await handleSendersRequest(new Request(`${ORIGIN}/api/account/senders/a/b/c`), async () => null),
      404,
      "LOOKUP_NOT_FOUND",
    );
    await expectShared(
      await handleSendersRequest(
        new Request(`${ORIGIN}/api/account/senders/%E0%A4%A`, { method: "DELETE", headers: { origin: ORIGIN } }),
        async () => null,
      ),
      404,
      "LOOKUP_NOT_FOUND",
    );
    const billing = await handleBillingRequest(
      new Request(`${ORIGIN}/api/billing/checkout`),
      "checkout",
      async () => null,
    );
    expect(billing.headers.get("allow")).toBe("POST");
    await expectShared(billing, 404, "LOOKUP_NOT_FOUND");
    await expectShared(
      await handleBillingRequest(post("/api/billing/portal", "{}"), "portal", async () => null),
      401,
      "UNAUTHORIZED",
    );
  });
});

describe("a body over the entry's byte cap is 400 INVALID_REQUEST and spends nothing", () => {
  it("the REST API (1 MB) on a metered route", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await handleRestRequest(post("/v1/assess", big(1_000_001), { authorization: `Bearer ${ws.apiKey}` }));
    const body = await expectShared(res, 400, "INVALID_REQUEST");
    expect(body.error.message).toBe("The request body is larger than 1000000 bytes.");
    expect(res.headers.get("x-service-quota-used")).toBeNull();
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
  });

  it("the REST API, on a body whose upload broke off (the client went away): 400, never the database's 503", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await handleRestRequest(brokenUploadAssess(ws.apiKey));
    const answer = await expectShared(res, 400, "INVALID_REQUEST");
    expect(answer.error.message).toBe("The request body ended before all of it arrived.");
    expect(res.headers.get("retry-after")).toBeNull();
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("the dashboard's tRPC endpoint (1 MB) on a metered mutation", async () => {
    const seat = await owner("dash-cap", ["suite_starter"]);
    const res = await handleDashboardRequest(
      post("/api/trpc/reports.create", big(1_000_001), { "x-service-workspace": seat.workspaceId }),
      async () => seat.user,
    );
    const body = await expectShared(res, 400);
    expect(body.error.data.appCode).toBe("INVALID_REQUEST");
    expect(body.error.message).toBe("The request body is larger than 1000000 bytes.");
    expect(await app.used(seat.workspaceId)).toBe(0);
    expect(await app.db.savedReport.count({ where: { workspaceId: seat.workspaceId } })).toBe(0);
  });

  it("saved reports (300 KB), refused after the capability check and before the unit", async () => {
    const seat = await owner("reports-cap", ["suite_starter"]);
    const res = await handleReportsRequest(
      post("/api/account/reports", big(300_001), { "x-service-workspace": seat.workspaceId }),
      async () => seat.user,
    );
    await expectShared(res, 400, "INVALID_REQUEST");
    expect(res.headers.get("x-service-quota-used")).toBeNull();
    expect(await app.used(seat.workspaceId)).toBe(0);
    const free = await owner("reports-cap-free", ["free"]);
    const refused = await handleReportsRequest(
      post("/api/account/reports", big(300_001), { "x-service-workspace": free.workspaceId }),
      async () => free.user,
    );
    await expectShared(refused, 403, "CAPABILITY_REQUIRED");
  });

  it("senders (300 KB)", async () => {
    const seat = await owner("senders-cap", ["suite_starter"]);
    const res = await handleSendersRequest(
      post("/api/account/senders", big(300_001), { "x-service-workspace": seat.workspaceId }),
      async () => seat.user,
    );
    await expectShared(res, 400, "INVALID_REQUEST");
    expect(await app.db.sender.count({ where: { workspaceId: seat.workspaceId } })).toBe(0);
  });
});

describe("the request's origin follows SERVICE_TRUST_PROXY", () => {
  const spoofed = { origin: "https://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

  it("the dashboard refuses a cross-site mutation that claims the site's origin through X-Forwarded-*, unless a proxy is trusted", async () => {
    const seat = await owner("dash-origin", ["suite_starter"]);
    const send = () =>
      handleDashboardRequest(
        post("/api/trpc/reports.create", JSON.stringify({ title: "t", report: { score: 1 } }), {
          ...spoofed,
          "x-service-workspace": seat.workspaceId,
        }),
        async () => seat.user,
      );
    const refused = await expectShared(await send(), 403);
    expect(refused.error.data.appCode).toBe("ORIGIN_FORBIDDEN");
    expect(await app.used(seat.workspaceId)).toBe(0);
    // Behind one trusted proxy the forwarded origin is the site's own, so the same request is same-origin.
    process.env.SERVICE_TRUST_PROXY = "1";
    expect((await send()).status).toBe(200);
    expect(await app.used(seat.workspaceId)).toBe(1);
  });

  it("the REST API's browser check treats X-Forwarded-Host as the own origin only behind a trusted proxy", async () => {
    const preflight = () =>
      handleRestRequest(
        new Request(`${ORIGIN}/v1/assess`, {
          method: "OPTIONS",
          headers: { ...spoofed, "access-control-request-method": "POST" },
        }),
      );
    await expectShared(await preflight(), 403, "ORIGIN_FORBIDDEN");
    process.env.SERVICE_TRUST_PROXY = "1";
    const allowed = await preflight();
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://evil.example");
  });
});

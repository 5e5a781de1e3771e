// Account, billing and dashboard routes take a dashboard session, not an API key (spec, Authentication 7): a key
// without a session is 401 UNAUTHORIZED with one message on every route and method, before the same-Origin rule
// could answer 403 ORIGIN_FORBIDDEN, and nothing is saved or spent. The walk covers every route file under
// app/api/account and app/api/billing, so a new one must be added here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { handleBillingRequest } from "../../server/api/http/billing";
import { API_KEY_REFUSED } from "../../server/api/http/dashboard-context";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { handleReportsRequest } from "../../server/api/http/reports";
import { handleSendersRequest } from "../../server/api/http/senders";
import type { SessionUser } from "../../server/auth/principal";
import { ensureUser } from "../../server/workspaces/members";
import { createTestApp } from "../harness";

const ORIGIN = "http://127.0.0.1:3000";
const app = await createTestApp();
const noSession = async () => null;

type Handler = (req: Request, session: () => Promise<SessionUser | null>) => Promise<Response>;

/** Every route and method an account or billing route answers, with a body where the route reads one. */
const walk: { file: string; method: string; path: string; handle: Handler; body?: unknown }[] = [
  { file: "account/reports", method: "GET", path: "/api/account/reports", handle: handleReportsRequest },
  {
    file: "account/reports",
    method: "POST",
    path: "/api/account/reports",
    handle: handleReportsRequest,
    body: { title: "x", report: {} },
  },
  { file: "account/senders", method: "GET", path: "/api/account/senders", handle: handleSendersRequest },
  {
    file: "account/senders",
    method: "POST",
    path: "/api/account/senders",
    handle: handleSendersRequest,
    body: { domain: "example.com" },
  },
  {
    file: "account/senders/[id]",
    method: "DELETE",
    path: "/api/account/senders/snd_1",
    handle: handleSendersRequest,
  },
  {
    file: "account/senders/[id]/verify",
    method: "POST",
    path: "/api/account/senders/snd_1/verify",
    handle: handleSendersRequest,
  },
  {
    file: "billing/checkout",
    method: "POST",
    path: "/api/billing/checkout",
    handle: (req, s) => handleBillingRequest(req, "checkout", s),
    body: { plan: "suite_business" },
  },
  {
    file: "billing/portal",
    method: "POST",
    path: "/api/billing/portal",
    handle: (req, s) => handleBillingRequest(req, "portal", s),
    body: {},
  },
];

function routeFiles(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...routeFiles(path.join(dir, e.name), `${prefix}/${e.name}`));
    else if (e.name === "route.ts") out.push(prefix.slice(1));
  }
  return out;
}

function request(method: string, url: string, headers: Record<string, string>, body?: unknown): Request {
  const h = new Headers(headers);
  if (body !== undefined) h.set("content-type", "application/json");
  return new Request(`${ORIGIN}${url}`, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe("an API key on an account route", () => {
  it("the walk covers every account and billing route file", () => {
    const api = path.join(import.meta.dirname, "../../app/api");
    const files = [
      ...routeFiles(path.join(api, "account")).map((f) => `account/${f}`),
      ...routeFiles(path.join(api, "billing")).map((f) => `billing/${f}`),
    ];
    expect(new Set(walk.map((w) => w.file))).toEqual(new Set(files));
    // Every file hands its requests to the handler walked here.
    for (const f of files) {
      const source = readFileSync(path.join(api, f, "route.ts"), "utf8");
      expect(source, f).toMatch(/handle\w+Request/);
      // And every method: one the handler does not take is its JSON 404 (below); a method the file did not export
      // was Next's 405 with an empty body (DELETE /api/account/reports).
      expect(source, f).toContain(
        "export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };",
      );
    }
  });

  it("is 401 UNAUTHORIZED on every route and method, whatever the Origin, and saves nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const keys: Record<string, string>[] = [
      { authorization: `Bearer ${ws.apiKey}` },
      { "x-api-key": ws.apiKey },
      { authorization: "Bearer svc_live_not-a-key" },
      { "x-api-key": "nonsense" },
    ];
    for (const w of walk) {
      for (const key of keys) {
        for (const origin of [{}, { origin: ORIGIN }, { origin: "https://evil.example" }] as Record<string, string>[]) {
          const res = await w.handle(request(w.method, w.path, { ...key, ...origin }, w.body), noSession);
          const where = `${w.method} ${w.path} ${JSON.stringify({ ...key, ...origin })}`;
          expect(res.status, where).toBe(401);
          expect(await res.json(), where).toEqual({ error: { code: "UNAUTHORIZED", message: API_KEY_REFUSED } });
          expect(res.headers.get("x-request-id"), where).toMatch(/^req_/);
        }
      }
    }
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.db.savedReport.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    expect(await app.db.sender.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("is the same 401 on the dashboard's tRPC endpoint, query or mutation", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    for (const req of [
      request("GET", "/api/trpc/account.overview", { authorization: `Bearer ${ws.apiKey}` }),
      request("POST", "/api/trpc/reports.create", { "x-api-key": ws.apiKey }, { title: "x", report: {} }),
    ]) {
      const res = await handleDashboardRequest(req, noSession);
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body.error.message).toBe(API_KEY_REFUSED);
      expect(body.error.data.appCode).toBe("UNAUTHORIZED");
    }
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("does not refuse a signed-in request for another Authorization scheme (HTTP Basic from a proxy in front)", async () => {
    const u = await ensureUser(app.db, { email: "basic@account-keys.test" });
    const user: SessionUser = { userId: u.id, email: u.email, name: null };
    const basic = { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` };
    // Signed in: the session authenticates; the request is answered as the dashboard's own.
    const signedIn = await handleReportsRequest(request("GET", "/api/account/reports", basic), async () => user);
    expect(signedIn.status).not.toBe(401);
    // Not signed in and no key: the usual "sign in" answer, not the key refusal.
    const res = await handleReportsRequest(request("GET", "/api/account/reports", basic), noSession);
    expect(res.status).toBe(401);
    expect((await res.json()).error.message).toBe("Sign in first.");
  });

  it("without a session or a key is 401 'Sign in first.' on every route and method, whatever the Origin", async () => {
    for (const w of walk) {
      for (const origin of [{}, { origin: ORIGIN }, { origin: "https://evil.example" }] as Record<string, string>[]) {
        const res = await w.handle(request(w.method, w.path, origin, w.body), noSession);
        const where = `${w.method} ${w.path} ${JSON.stringify(origin)}`;
        expect(res.status, where).toBe(401);
        expect(await res.json(), where).toEqual({ error: { code: "UNAUTHORIZED", message: "Sign in first." } });
      }
    }
  });

  it("an unknown method is still 404 LOOKUP_NOT_FOUND before the key is looked at", async () => {
    const res = await handleReportsRequest(
      request("PUT", "/api/account/reports", { authorization: "Bearer svc_live_x" }),
      noSession,
    );
    expect(res.status).toBe(404);
    expect(res.headers.get("allow")).toBe("GET, POST");
  });
});

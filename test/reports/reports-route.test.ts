// {account_url}/api/account/reports end to end through the route's handler with a real database: session and
// workspace selection, same-Origin mutations, capability and quota, expiry and legacy reports, tenant isolation.
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../../server/api/context";
import { adjustUsage } from "../../server/quota/adjust";
import { handleReportsRequest } from "../../server/api/http/reports";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { createTestApp } from "../harness";

const ORIGIN = "http://127.0.0.1:3000";
const URL_ = `${ORIGIN}/api/account/reports`;
const app = await createTestApp();

async function signedIn(email: string): Promise<SessionUser> {
  const u = await ensureUser(app.db, { email });
  return { userId: u.id, email: u.email, name: null };
}

async function ownWorkspace(user: SessionUser, plans = ["suite_starter"]) {
  const ws = await createWorkspace(app.db, {
    name: `${user.email}'s`,
    plans,
    ownerEmail: user.email,
    ownerUserId: user.userId,
  });
  return ws.workspaceId;
}

type Call = { user: SessionUser | null; workspaceId?: string; origin?: string | null; query?: string };

async function call(method: "GET" | "POST", c: Call, body?: unknown) {
  const headers = new Headers();
  if (c.workspaceId) headers.set("x-service-workspace", c.workspaceId);
  if (method === "POST") {
    headers.set("content-type", "application/json");
    if (c.origin !== null) headers.set("origin", c.origin ?? ORIGIN);
  }
  const req = new Request(`${URL_}${c.query ?? ""}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await handleReportsRequest(req, async () => c.user);
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const sample = {
  title: "Suspicious signup",
  report: { score: 87, riskLevel: "critical", signals: ["disposable_email"] },
  request_id: "req_abc",
};

describe("account reports route", () => {
  it("saves a report for one unit, with quota headers and an expiry from the plan's history window", async () => {
    const user = await signedIn("save@example.test");
    const ws = await ownWorkspace(user);
    const before = Date.now();
    const r = await call("POST", { user, workspaceId: ws }, sample);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: "Suspicious signup", report: sample.report, request_id: "req_abc" });
    expect(r.body.id).toMatch(/^rpt_/);
    const created = Date.parse(r.body.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(r.body.expires_at) - created).toBe(30 * 86_400_000);
    expect(r.headers.get("x-service-quota-used")).toBe("1");
    expect(r.headers.get("x-service-quota-remaining")).toBe("999");
    expect(r.headers.get("x-request-id")).toMatch(/^req_/);
    expect(r.headers.get("cache-control")).toBe("private, no-store");
    expect(await app.used(ws)).toBe(1);
    const ledger = await app.db.usageLedger.findMany({ where: { workspaceId: ws } });
    expect(ledger.map((l) => [l.endpoint, l.units, l.userId])).toEqual([["account.reports.create", 1, user.userId]]);
  });

  it("lists the workspace's reports newest first, unmetered, with cursor pagination", async () => {
    const user = await signedIn("list@example.test");
    const ws = await ownWorkspace(user, ["lookups_developer"]);
    for (const title of ["one", "two", "three"])
      expect((await call("POST", { user, workspaceId: ws }, { title, report: { title } })).status).toBe(200);
    const first = await call("GET", { user, workspaceId: ws, query: "?limit=2" });
    expect(first.status).toBe(200);
    expect(first.body.items.map((i: any) => i.title)).toEqual(["three", "two"]);
    expect(first.body.items[0]).toMatchObject({ report: { title: "three" }, request_id: null });
    expect(Date.parse(first.body.items[0].expires_at) - Date.parse(first.body.items[0].created_at)).toBe(
      90 * 86_400_000,
    );
    expect(first.headers.get("x-service-quota-used")).toBeNull();
    const second = await call("GET", { user, workspaceId: ws, query: `?limit=2&cursor=${first.body.nextCursor}` });
    expect(second.body.items.map((i: any) => i.title)).toEqual(["one"]);
    expect(second.body.nextCursor).toBeNull();
    expect(await app.used(ws)).toBe(3);
  });

  it("hides a report once its expires_at has passed and keeps showing legacy reports without one", async () => {
    const user = await signedIn("expiry@example.test");
    const ws = await ownWorkspace(user);
    const expired = await call("POST", { user, workspaceId: ws }, { title: "expired", report: { a: 1 } });
    const live = await call("POST", { user, workspaceId: ws }, { title: "live", report: { a: 2 } });
    await app.db.savedReport.update({
      where: { id: expired.body.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await app.db.savedReport.create({
      data: {
        id: "rpt_legacy1",
        workspaceId: ws,
        title: "legacy",
        body: { score: 10 },
        createdAt: new Date(Date.now() - 400 * 86_400_000),
        expiresAt: null,
      },
    });
    const r = await call("GET", { user, workspaceId: ws });
    expect(r.body.items.map((i: any) => i.id)).toEqual([live.body.id, "rpt_legacy1"]);
    expect(r.body.items[1]).toEqual({
      id: "rpt_legacy1",
      title: "legacy",
      report: { score: 10 },
      request_id: null,
      created_at: expect.any(String),
      expires_at: null,
    });
  });

  it("refuses Free and Email plans with 403 CAPABILITY_REQUIRED and spends no unit", async () => {
    const user = await signedIn("free@example.test");
    for (const plans of [["free"], ["email"]]) {
      const ws = await ownWorkspace(user, plans);
      const r = await call("POST", { user, workspaceId: ws }, sample);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: { code: "CAPABILITY_REQUIRED", message: expect.any(String) } });
      expect(await app.used(ws)).toBe(0);
      expect(await app.db.savedReport.count({ where: { workspaceId: ws } })).toBe(0);
    }
  });

  it("answers 402 QUOTA_EXCEEDED when the allowance is spent, saving nothing", async () => {
    const user = await signedIn("quota@example.test");
    const ws = await ownWorkspace(user);
    await adjustUsage(app.db, { workspaceId: ws, units: 1000, reason: "test" });
    const r = await call("POST", { user, workspaceId: ws }, sample);
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe("QUOTA_EXCEEDED");
    expect(r.headers.get("x-service-quota-used")).toBeNull();
    expect(await app.db.savedReport.count({ where: { workspaceId: ws } })).toBe(0);
  });

  it("answers 401 UNAUTHORIZED without a session", async () => {
    for (const method of ["GET", "POST"] as const) {
      const r = await call(method, { user: null }, method === "POST" ? sample : undefined);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe("UNAUTHORIZED");
      expect(r.headers.get("x-request-id")).toMatch(/^req_/);
    }
  });

  it("refuses a POST from another origin or without Origin with 403 ORIGIN_FORBIDDEN, spending nothing", async () => {
    const user = await signedIn("origin@example.test");
    const ws = await ownWorkspace(user);
    for (const origin of ["https://evil.example", null]) {
      const r = await call("POST", { user, workspaceId: ws, origin }, sample);
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("ORIGIN_FORBIDDEN");
    }
    expect(await app.used(ws)).toBe(0);
    expect(await app.db.savedReport.count({ where: { workspaceId: ws } })).toBe(0);
  });

  it("answers another user's workspace as 404 NOT_FOUND and never lists its reports", async () => {
    const owner = await signedIn("tenant-a@example.test");
    const other = await signedIn("tenant-b@example.test");
    const theirs = await ownWorkspace(owner);
    const mine = await ownWorkspace(other);
    const saved = await call("POST", { user: owner, workspaceId: theirs }, sample);
    for (const method of ["GET", "POST"] as const) {
      const r = await call(method, { user: other, workspaceId: theirs }, method === "POST" ? sample : undefined);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("NOT_FOUND");
    }
    expect(await app.used(theirs)).toBe(1);
    const own = await call("GET", { user: other, workspaceId: mine });
    expect(own.body.items).toEqual([]);
    const foreignCursor = await call("GET", { user: other, workspaceId: mine, query: `?cursor=${saved.body.id}` });
    expect(foreignCursor.status).toBe(400);
    expect(foreignCursor.body.error.code).toBe("INVALID_REQUEST");
  });

  it("refuses a list query it cannot read as written with 400 INVALID_REQUEST naming the parameter", async () => {
    // The README's rule for every route that reads the query ("Requests the API reads"): an unknown parameter is
    // refused, never dropped; one that takes one value, sent twice, is refused; a number is written in decimal digits.
    const user = await signedIn("query@example.test");
    const ws = await ownWorkspace(user);
    const cases: [string, RegExp][] = [
      ["?limt=5", /limt/],
      ["?limit=5&limit=6", /limit/],
      ["?limit=0x10", /limit/],
      ["?limit=%2B5", /limit/],
      ["?limit=", /limit/],
      ["?cursor=a&cursor=b", /cursor/],
      ["?limit=%ff", /limit/],
    ];
    for (const [query, named] of cases) {
      const r = await call("GET", { user, workspaceId: ws, query });
      expect(r.status, query).toBe(400);
      expect(r.body.error.code, query).toBe("INVALID_REQUEST");
      expect(r.body.error.message, query).toMatch(named);
    }
    const ok = await call("GET", { user, workspaceId: ws, query: "?limit=5" });
    expect(ok.status).toBe(200);
    // A session is still checked first: without one the answer is 401, whatever the query.
    expect((await call("GET", { user: null, workspaceId: ws, query: "?limt=5" })).status).toBe(401);
  });

  it("refuses invalid bodies with 400 INVALID_REQUEST before any unit is spent", async () => {
    const user = await signedIn("invalid@example.test");
    const ws = await ownWorkspace(user);
    const cases: unknown[] = [
      { title: "", report: {} },
      { title: "x".repeat(201), report: {} },
      { title: "no report" },
      { title: "array", report: [1, 2] },
      { title: "too big", report: { blob: "x".repeat(270_000) } },
      [1],
    ];
    for (const body of cases) {
      const r = await call("POST", { user, workspaceId: ws }, body);
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(r.body.error.code).toBe("INVALID_REQUEST");
    }
    expect(await app.used(ws)).toBe(0);
  });
});

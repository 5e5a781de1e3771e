// The dashboard's API requests (/api/trpc, and the account routes /api/account/*) write one log line each, as /v1 requests do and with the same fields
// (request id, method, route, status, duration, workspace, error code), so an operator can follow what a dashboard
// user did. They used to write nothing unless they failed. Never the query (the procedures' input), a cookie or a body.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../../server/auth/principal";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { handleReportsRequest } from "../../server/api/http/reports";
import { handleSendersRequest } from "../../server/api/http/senders";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { captureLogLines, silenceLogs } from "../log-lines";
import { metrics } from "../../server/operate/metrics";
import { createTestApp, type TestApp } from "../harness";

const ORIGIN = "http://127.0.0.1:3000";
let app: TestApp;
let user: SessionUser;
let workspaceId: string;
let lines: string[] = [];

beforeAll(async () => {
  app = await createTestApp();
  const u = await ensureUser(app.db, { email: "dashboard-log@example.test" });
  user = { userId: u.id, email: u.email, name: null };
  ({ workspaceId } = await createWorkspace(app.db, {
    name: "Logged",
    plans: ["free"],
    ownerEmail: user.email,
    ownerUserId: user.userId,
  }));
  lines = captureLogLines();
});

afterAll(() => silenceLogs());

const requestLines = () => lines.map((l) => JSON.parse(l)).filter((r) => r.msg === "request");

async function query(path: string, signedIn: SessionUser | null) {
  const input = encodeURIComponent(JSON.stringify({ note: "input-value-s3cret" }));
  return handleDashboardRequest(
    new Request(`${ORIGIN}/api/trpc/${path}?input=${input}`, {
      headers: { cookie: "next-auth.session-token=cookie-s3cret" },
    }),
    async () => signedIn,
  );
}

describe("dashboard requests on /metrics and their correlation id", () => {
  // They were logged but neither counted on /metrics nor given the client's X-Request-Id back, as /v1 requests are.
  const counted = async (route: string, status: string) =>
    (await metrics().requests.get()).values.find(
      (v) => v.labels.route === route && v.labels.status === status && v.labels.method === "GET",
    )?.value ?? 0;

  it("counts the tRPC endpoint under /api/trpc, whatever procedures a batch calls, and echoes the client's id", async () => {
    lines.length = 0;
    const before = await counted("/api/trpc", "200");
    const res = await handleDashboardRequest(
      new Request(`${ORIGIN}/api/trpc/account.overview`, { headers: { "x-request-id": "client-42.a" } }),
      async () => user,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("x-client-request-id")).toBe("client-42.a");
    expect(res.headers.get("x-request-id")).not.toBe("client-42.a");
    expect(await counted("/api/trpc", "200")).toBe(before + 1);
    expect(requestLines()[0]).toMatchObject({ client_request_id: "client-42.a", route: "/api/trpc/account.overview" });
    const bad = await handleDashboardRequest(
      new Request(`${ORIGIN}/api/trpc/account.overview`, { headers: { "x-request-id": "not ok\u0001" } }),
      async () => user,
    );
    expect(bad.headers.get("x-client-request-id")).toBeNull();
  });

  it("counts an account route under its template", async () => {
    const before = await counted("/api/account/senders", "200");
    const res = await handleSendersRequest(new Request(`${ORIGIN}/api/account/senders`), async () => user);
    expect(res.status).toBe(200);
    expect(await counted("/api/account/senders", "200")).toBe(before + 1);
  });
});

describe("dashboard request lines", () => {
  it("writes one line per request with the /v1 line's fields and the workspace, without query, cookie or input", async () => {
    lines.length = 0;
    const res = await query("account.overview", user);
    expect(res.status).toBe(200);
    const [line, ...rest] = requestLines();
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      request_id: res.headers.get("x-request-id"),
      method: "GET",
      route: "/api/trpc/account.overview",
      status: 200,
      workspace_id: workspaceId,
    });
    expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    expect(line.error_code).toBeUndefined();
    const all = lines.join("\n");
    for (const secret of ["input-value-s3cret", "cookie-s3cret", "input="]) expect(all).not.toContain(secret);
  });

  it("writes the refusal's status and code, and no workspace, for a request without a session", async () => {
    lines.length = 0;
    const res = await query("account.overview", null);
    expect(res.status).toBe(401);
    expect(requestLines()).toEqual([
      expect.objectContaining({
        request_id: res.headers.get("x-request-id"),
        method: "GET",
        route: "/api/trpc/account.overview",
        status: 401,
        error_code: "UNAUTHORIZED",
      }),
    ]);
    expect(requestLines()[0].workspace_id).toBeUndefined();
  });

  it("names a path that is not a list of procedures 'unmatched', never the caller's text", async () => {
    lines.length = 0;
    for (const path of ["alice@example.com", "account.overview,alice@example.com", "%E0%A4%A"]) {
      const res = await query(path, user);
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    expect(requestLines().map((r) => r.route)).toEqual(["unmatched", "unmatched", "unmatched"]);
    expect(lines.join("\n")).not.toContain("alice@example.com");
    // A batch of procedures is named by them.
    lines.length = 0;
    await query("account.overview,account.keys", user);
    expect(requestLines().map((r) => r.route)).toEqual(["/api/trpc/account.overview,account.keys"]);
  });

  it("writes the account routes' lines with the route's template, never the id in the path", async () => {
    lines.length = 0;
    const list = await handleReportsRequest(new Request(`${ORIGIN}/api/account/reports?limit=5`), async () => user);
    expect(list.status).toBe(200);
    const gone = await handleSendersRequest(
      new Request(`${ORIGIN}/api/account/senders/snd_not-a-sender-id`, {
        method: "DELETE",
        headers: { origin: ORIGIN },
      }),
      async () => user,
    );
    expect(gone.status).toBe(404);
    expect(requestLines()).toEqual([
      expect.objectContaining({
        request_id: list.headers.get("x-request-id"),
        method: "GET",
        route: "/api/account/reports",
        status: 200,
        workspace_id: workspaceId,
      }),
      expect.objectContaining({
        request_id: gone.headers.get("x-request-id"),
        method: "DELETE",
        route: "/api/account/senders/{id}",
        status: 404,
        workspace_id: workspaceId,
        error_code: (await gone.json()).error.code,
      }),
    ]);
    expect(lines.join("\n")).not.toContain("snd_not-a-sender-id");
  });
});

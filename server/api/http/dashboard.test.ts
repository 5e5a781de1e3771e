// The dashboard's tRPC endpoint end to end over HTTP (tRPC fetch adapter, real database): session required, workspace
// selected only among the user's memberships, same-origin mutations, owner-only management, metered lookups.
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../../test/harness";
import type { SessionUser } from "../../auth/principal";
import { createWorkspace } from "../../workspaces/workspaces";
import { ensureUser, inviteMember } from "../../workspaces/members";
import { MAX_BATCH_CALLS } from "../batch-limit";
import { handleDashboardRequest } from "./dashboard";

/** One JSON media type, as either tRPC or the endpoint writes it. */
const ONE_JSON_TYPE = /^application\/json(?:; ?charset=utf-8)?$/i;

const ORIGIN = "http://127.0.0.1:3000";
const app = await createTestApp();

async function signedIn(email: string): Promise<SessionUser> {
  const u = await ensureUser(app.db, { email });
  return { userId: u.id, email: u.email, name: null };
}

async function ownWorkspace(user: SessionUser, plans = ["free"]) {
  return createWorkspace(app.db, { name: `${user.email}'s`, plans, ownerEmail: user.email, ownerUserId: user.userId });
}

type Call = { user: SessionUser | null; headers?: Record<string, string> };

async function query(path: string, input: unknown, c: Call) {
  const q = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await handleDashboardRequest(
    new Request(`${ORIGIN}/api/trpc/${path}${q}`, { headers: c.headers }),
    async () => c.user,
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

async function mutate(path: string, input: unknown, c: Call & { origin?: string | null }) {
  const headers = new Headers({ "content-type": "application/json", ...c.headers });
  if (c.origin !== null) headers.set("origin", c.origin ?? ORIGIN);
  const res = await handleDashboardRequest(
    new Request(`${ORIGIN}/api/trpc/${path}`, { method: "POST", headers, body: JSON.stringify(input) }),
    async () => c.user,
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe("dashboard endpoint", () => {
  it("answers a procedure that does not exist alike whatever the method and body: 404, never 'must be JSON'", async () => {
    const user = await signedIn("nope@example.test");
    await ownWorkspace(user);
    const get = await query("account.nope", undefined, { user });
    const post = await handleDashboardRequest(
      new Request(`${ORIGIN}/api/trpc/account.nope`, { method: "POST", headers: { origin: ORIGIN } }),
      async () => user,
    );
    const postBody = (await post.json()) as any;
    expect(get.status).toBe(404);
    expect(post.status).toBe(404);
    expect(get.body.error.data.appCode).toBe("LOOKUP_NOT_FOUND");
    expect(postBody).toEqual(get.body);
    expect(post.headers.get("content-type")).toMatch(ONE_JSON_TYPE);
  });

  it("refuses a batch of more calls than the dashboard's client sends (400, before any call runs); a full batch runs", async () => {
    const user = await signedIn("batch@example.test");
    const { workspaceId } = await ownWorkspace(user);
    const batch = async (calls: number) => {
      const names = Array.from({ length: calls }, () => "geo.ipGeo").join(",");
      const input = Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { ip: "8.8.8.8" }]));
      const res = await handleDashboardRequest(
        new Request(`${ORIGIN}/api/trpc/${names}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`, {
          headers: { "x-service-workspace": workspaceId },
        }),
        async () => user,
      );
      return { status: res.status, body: (await res.json()) as any };
    };
    const used = () => app.used(workspaceId);
    const before = await used();
    const over = await batch(MAX_BATCH_CALLS + 1);
    expect(over.status).toBe(400);
    const errors = Array.isArray(over.body) ? over.body.map((b: any) => b.error) : [over.body.error];
    expect(errors[0].data.appCode).toBe("INVALID_REQUEST");
    expect(errors[0].message).toMatch(
      new RegExp(`at most ${MAX_BATCH_CALLS} calls; this one makes ${MAX_BATCH_CALLS + 1}`),
    );
    expect(await used()).toBe(before);
    const full = await batch(MAX_BATCH_CALLS);
    expect(full.status).toBe(200);
    expect(full.body).toHaveLength(MAX_BATCH_CALLS);
    expect(await used()).toBe(before + MAX_BATCH_CALLS);
  });

  it("without a session answers 401 UNAUTHORIZED", async () => {
    const r = await query("account.overview", undefined, { user: null });
    expect(r.status).toBe(401);
    expect(r.body.error.data.appCode).toBe("UNAUTHORIZED");
    expect(r.headers.get("x-request-id")).toMatch(/^req_/);
  });

  // GET on a mutation, POST on a query and a body that is not JSON were tRPC's 405 and 415 with "Internal error."
  // (logged as bugs, with their stacks).
  it("answers a procedure called with the wrong method or a body that is not JSON as the rest of the service does", async () => {
    const user = await signedIn("shape@example.test");
    const ws = await ownWorkspace(user);
    const keys = () => app.db.apiKey.count({ where: { workspaceId: ws.workspaceId } });
    const before = await keys();
    const wrongMethod = await query("account.createKey", {}, { user });
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.body.error.data.appCode).toBe("LOOKUP_NOT_FOUND");
    expect(wrongMethod.body.error.message).toBe("No such route or method.");
    // PUT, PATCH and DELETE without a body were read as a mutation's and refused as not JSON (400).
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const other = await handleDashboardRequest(
        new Request(`${ORIGIN}/api/trpc/account.createKey`, { method, headers: { origin: ORIGIN } }),
        async () => user,
      );
      expect(other.status, method).toBe(404);
      expect(other.headers.get("content-type"), method).toMatch(ONE_JSON_TYPE);
      expect(((await other.json()) as any).error, method).toMatchObject({
        message: "No such route or method.",
        data: { appCode: "LOOKUP_NOT_FOUND" },
      });
    }
    // One Content-Type, not tRPC's and ours joined ("application/json, application/json; charset=utf-8").
    const getOnMutation = await handleDashboardRequest(
      new Request(`${ORIGIN}/api/trpc/account.createKey`, { headers: { origin: ORIGIN } }),
      async () => user,
    );
    expect(getOnMutation.headers.get("content-type")).toMatch(ONE_JSON_TYPE);
    const postOnQuery = await mutate("account.overview", {}, { user });
    expect(postOnQuery.status).toBe(404);
    expect(postOnQuery.body.error.data.appCode).toBe("LOOKUP_NOT_FOUND");
    const res = await handleDashboardRequest(
      new Request(`${ORIGIN}/api/trpc/account.createKey`, {
        method: "POST",
        headers: { "content-type": "text/plain", origin: ORIGIN },
        body: "{}",
      }),
      async () => user,
    );
    const body = (await res.json()) as any;
    expect(res.status).toBe(400);
    expect(body.error.data.appCode).toBe("INVALID_REQUEST");
    expect(body.error.message).toContain("must be JSON");
    // The answer is JSON and says so (it was labelled text/plain;charset=UTF-8), with no body and with one alike.
    expect(res.headers.get("content-type")).toMatch(ONE_JSON_TYPE);
    const bodiless = await handleDashboardRequest(
      new Request(`${ORIGIN}/api/trpc/account.createKey`, { method: "POST", headers: { origin: ORIGIN } }),
      async () => user,
    );
    expect(bodiless.status).toBe(400);
    expect(bodiless.headers.get("content-type")).toMatch(ONE_JSON_TYPE);
    expect(((await bodiless.json()) as any).error.data.appCode).toBe("INVALID_REQUEST");
    // None of the calls ran: no key was made.
    expect(await keys()).toBe(before);
  });

  it("selects the user's first workspace when none is named", async () => {
    const user = await signedIn("first@example.test");
    const a = await ownWorkspace(user);
    await ownWorkspace(user);
    const r = await query("account.overview", undefined, { user });
    expect(r.status).toBe(200);
    expect(r.body.result.data.workspace.id).toBe(a.workspaceId);
    expect(r.body.result.data.role).toBe("owner");
  });

  it("selects by the X-Service-Workspace header before the svc_workspace cookie", async () => {
    const user = await signedIn("select@example.test");
    const a = await ownWorkspace(user);
    const b = await ownWorkspace(user);
    const byCookie = await query("account.overview", undefined, {
      user,
      headers: { cookie: `other=1; svc_workspace=${b.workspaceId}` },
    });
    expect(byCookie.body.result.data.workspace.id).toBe(b.workspaceId);
    const both = await query("account.overview", undefined, {
      user,
      headers: { cookie: `svc_workspace=${b.workspaceId}`, "x-service-workspace": a.workspaceId },
    });
    expect(both.body.result.data.workspace.id).toBe(a.workspaceId);
  });

  it("answers another tenant's workspace exactly like a missing one (404 NOT_FOUND)", async () => {
    const owner = await signedIn("tenant-a@example.test");
    const other = await signedIn("tenant-b@example.test");
    const theirs = await ownWorkspace(owner);
    await ownWorkspace(other);
    const foreign = await query("account.keys", undefined, {
      user: other,
      headers: { "x-service-workspace": theirs.workspaceId },
    });
    const missing = await query("account.keys", undefined, {
      user: other,
      headers: { "x-service-workspace": "ws_doesnotexist" },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.data.appCode).toBe("NOT_FOUND");
    expect(foreign.body.error.message).toBe(missing.body.error.message);
    const cookie = await query("account.keys", undefined, {
      user: other,
      headers: { cookie: `svc_workspace=${theirs.workspaceId}` },
    });
    expect(cookie.status).toBe(404);
  });

  it("refuses mutations from another origin or without an Origin header with 403 ORIGIN_FORBIDDEN", async () => {
    const user = await signedIn("origin@example.test");
    const ws = await ownWorkspace(user, ["suite_starter"]);
    const headers = { "x-service-workspace": ws.workspaceId };
    const evil = await mutate("account.createKey", { name: "x" }, { user, headers, origin: "http://evil.example" });
    expect(evil.status).toBe(403);
    expect(evil.body.error.data.appCode).toBe("ORIGIN_FORBIDDEN");
    const none = await mutate("account.createKey", { name: "x" }, { user, headers, origin: null });
    expect(none.body.error.data.appCode).toBe("ORIGIN_FORBIDDEN");
    expect(await app.db.apiKey.count({ where: { workspaceId: ws.workspaceId } })).toBe(1);
    const same = await mutate("account.createKey", { name: "x" }, { user, headers });
    expect(same.status).toBe(200);
    expect(same.body.result.data.plaintext).toMatch(/^svc_live_/);
  });

  it("lets members read but only owners manage keys (403 FORBIDDEN)", async () => {
    const owner = await signedIn("owner@example.test");
    const ws = await ownWorkspace(owner, ["suite_starter"]);
    await inviteMember(app.db, { workspaceId: ws.workspaceId, email: "helper@example.test" });
    const member = await signedIn("helper@example.test"); // signing in links the invitation
    const headers = { "x-service-workspace": ws.workspaceId };
    const keys = await query("account.keys", undefined, { user: member, headers });
    expect(keys.status).toBe(200);
    expect(keys.body.result.data).toHaveLength(1);
    const create = await mutate("account.createKey", {}, { user: member, headers });
    expect(create.status).toBe(403);
    expect(create.body.error.data.appCode).toBe("FORBIDDEN");
  });

  it("runs a metered lookup for a member with the workspace's quota and returns the quota headers", async () => {
    const owner = await signedIn("lookup-owner@example.test");
    const ws = await ownWorkspace(owner, ["suite_starter"]); // Free includes one member: the owner;
    await inviteMember(app.db, { workspaceId: ws.workspaceId, email: "lookup-member@example.test" });
    const member = await signedIn("lookup-member@example.test");
    const r = await query(
      "geo.ipGeo",
      { ip: "8.8.8.8" },
      { user: member, headers: { "x-service-workspace": ws.workspaceId } },
    );
    expect(r.status).toBe(200);
    expect(r.body.result.data.ip).toBe("8.8.8.8");
    expect(r.headers.get("x-service-quota-used")).toBe("1");
    expect(r.headers.get("x-service-quota-remaining")).toBe("999");
    expect(await app.used(ws.workspaceId)).toBe(1);
    const bad = await query(
      "geo.ipGeo",
      { ip: "not-an-ip" },
      { user: member, headers: { "x-service-workspace": ws.workspaceId } },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.data.appCode).toBe("INVALID_REQUEST");
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("refuses a metered lookup triggered from another site, spending nothing", async () => {
    const owner = await signedIn("cross-site@example.test");
    const ws = await ownWorkspace(owner);
    const headers = { "x-service-workspace": ws.workspaceId };
    const attempts: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "https://evil.example" },
    ];
    for (const extra of attempts) {
      const r = await query("geo.ipGeo", { ip: "8.8.8.8" }, { user: owner, headers: { ...headers, ...extra } });
      expect(r.status).toBe(403);
      expect(r.body.error.data.appCode).toBe("ORIGIN_FORBIDDEN");
    }
    expect(await app.used(ws.workspaceId)).toBe(0);
    const own = await query(
      "geo.ipGeo",
      { ip: "8.8.8.8" },
      { user: owner, headers: { ...headers, "sec-fetch-site": "same-origin" } },
    );
    expect(own.status).toBe(200);
    expect(await app.used(ws.workspaceId)).toBe(1);
  });
});

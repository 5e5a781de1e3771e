// Lone UTF-16 surrogates (issue 42, item 2): a JSON string may escape half of a surrogate pair ("\udc00"), which
// is not text (PostgreSQL cannot store it: the request used to be answered 500 after a unit was reserved). Every
// string field of every route, on both ways in and through both doors of POST /v1/assess, is 400 INVALID_REQUEST
// before any unit: no unit, no ledger row, no history entry. The strings a raw lockfile holds are screened after
// they are read, so a JSON-escaped NUL or surrogate inside a package-lock.json is refused too, and a raw body that
// is not UTF-8 text (a surrogate written as bytes) is refused as such. Both stores: DATABASE_URL selects PostgreSQL.
import { beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "../../server/api/context";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { handleRestRequest } from "../../server/api/rest/handler";
import { flushLookupHistory } from "../../server/history/history";
import { ensureUser } from "../../server/workspaces/members";
import { call, ownerAndMember } from "../dashboard/call";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

const invalid = { error: { code: "INVALID_REQUEST", message: expect.stringMatching(/surrogate|NUL|UTF-8/) } };

/** Nothing of the request stayed: no unit, no ledger row, no history entry. */
async function expectNothingCharged(workspaceId: string) {
  expect(await app.used(workspaceId)).toBe(0);
  expect(await app.ledgerCount(workspaceId)).toBe(0);
  await flushLookupHistory();
  expect(await app.db.lookupHistory.count({ where: { workspaceId } })).toBe(0);
}

/** POST /v1/assess through the route's handler with a chunked body (the door takes only a declared length). */
async function assessChunked(key: string, text: string) {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
  const res = await handleRestRequest(
    new Request("http://127.0.0.1:3000/v1/assess", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "transfer-encoding": "chunked" },
      body,
      duplex: "half",
    } as RequestInit),
  );
  return { status: res.status, body: (await res.json()) as any };
}

describe("POST /v1/assess with a lone surrogate is 400, charging nothing", () => {
  const fields: [string, Record<string, unknown>][] = [
    ["user_agent", { user_agent: "\udc00" }],
    ["user_id", { user_id: "u\ud800" }],
    ["email", { email: "a\ud800b@example.com" }],
    ["device_id", { device_id: "\udfffdev" }],
    ["a metadata value", { metadata: { note: "free text \ud83d" } }],
    ["a metadata key", { metadata: { ["k\udc00"]: "x" } }],
  ];

  it.each(fields)("%s through the plain door", async (_label, extra) => {
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: "8.8.8.8", ...extra },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid);
    await expectNothingCharged(ws.workspaceId);
  });

  it.each(fields)("%s through the chunked path (the route)", async (_label, extra) => {
    const ws = await app.seedWorkspace();
    const res = await assessChunked(ws.apiKey, JSON.stringify({ event: "login", ip: "8.8.8.8", ...extra }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid);
    await expectNothingCharged(ws.workspaceId);
  });

  it("names the field", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "login", ip: "8.8.8.8", user_agent: "Mozilla \udc00" },
    });
    expect(res.body.error.message).toMatch(/^user_agent: /);
  });

  it("keeps a surrogate pair (an emoji) as the text it is", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/assess", {
      key: ws.apiKey,
      body: { event: "form", ip: "8.8.8.8", user_agent: "Mozilla 😀", metadata: { "note 😀": "ok \ud83d\ude00" } },
    });
    expect(res.status).toBe(200);
    expect(await app.used(ws.workspaceId)).toBe(1);
  });
});

describe("other routes", () => {
  it("a list item value is 400 and writes nothing", async () => {
    const ws = await app.seedWorkspace();
    const list = await app.request("POST", "/v1/lists", { key: ws.apiKey, body: { name: "uids", kind: "user" } });
    expect(list.status).toBe(200);
    const res = await app.request("POST", `/v1/lists/${list.body.id}/items`, {
      key: ws.apiKey,
      body: { items: [{ value: "a\ud800b" }] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid);
    const items = await app.request("GET", `/v1/lists/${list.body.id}/items`, { key: ws.apiKey });
    expect(items.body.items).toEqual([]);
  });

  it.each([
    [
      "a rule name",
      "POST",
      "/v1/rules",
      {
        name: "r\udc00",
        action: "block",
        conditions: [{ field: "ip", op: "cidr", value: "203.0.113.0/24" }],
      },
    ],
    ["a blocklist target", "POST", "/v1/blocklists/check", { targets: ["exa\ud800mple.com"] }],
  ])("%s", async (_label, method, path, body) => {
    const ws = await app.seedWorkspace({ plans: ["lookups_growth"] });
    const res = await app.request(method, path, { key: ws.apiKey, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid);
    await expectNothingCharged(ws.workspaceId);
  });

  it("a path parameter that percent-encodes a surrogate is 400 (not valid UTF-8)", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("GET", "/v1/ip/8.8.8.8%ED%A0%80/geo", { key: ws.apiKey });
    expect(res.status).toBe(400);
    await expectNothingCharged(ws.workspaceId);
  });
});

const lockfile = (name: string) =>
  JSON.stringify({
    name: "app",
    lockfileVersion: 3,
    packages: {
      "": { name: "app", dependencies: { [name]: "1.0.0" } },
      [`node_modules/${name}`]: { version: "1.0.0" },
    },
  });

describe("POST /v1/vulnerabilities/scan reads its raw body as text", () => {
  it("a package name that escapes a lone surrogate is 400 on REST, with no history entry", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/vulnerabilities/scan", {
      key: ws.apiKey,
      body: lockfile("a\ud800b"),
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid);
    await expectNothingCharged(ws.workspaceId);
  });

  it("and on the dashboard, for the scan and its cost preview alike", async () => {
    const { owner } = await ownerAndMember(app.db, "lone-surrogate-scan", ["suite_business"]);
    for (const path of ["vulnerabilities.scanPreview", "vulnerabilities.scan"]) {
      const res = await call(owner, path, { lockfile: lockfile("a\ud800b") }, "mutation");
      expect({ path, status: res.status, code: res.code }).toEqual({ path, status: 400, code: "INVALID_REQUEST" });
      expect(res.message).toMatch(/line \d+: .*surrogate/);
    }
    await expectNothingCharged(owner.workspaceId);
  });

  it("a body that is not UTF-8 (a surrogate written as bytes) is 400 and charges nothing", async () => {
    const ws = await app.seedWorkspace();
    // The name "a?b" with the surrogate's bytes as "?", wherever the file names it (ED A0 80: not UTF-8).
    const parts = lockfile("a?b")
      .split("?")
      .map((p) => Buffer.from(p));
    const bytes = Buffer.concat(parts.flatMap((p, i) => (i === 0 ? [p] : [Buffer.from([0xed, 0xa0, 0x80]), p])));
    expect(() => JSON.parse(bytes.toString("utf8"))).not.toThrow();
    const res = await handleRestRequest(
      new Request("http://127.0.0.1:3000/v1/vulnerabilities/scan", {
        method: "POST",
        headers: { authorization: `Bearer ${ws.apiKey}`, "content-type": "text/plain" },
        body: bytes,
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "INVALID_REQUEST", message: expect.stringMatching(/not valid UTF-8/) },
    });
    await expectNothingCharged(ws.workspaceId);
  });
});

describe("the dashboard refuses the same input", () => {
  const ORIGIN = "http://127.0.0.1:3000";
  let user: SessionUser;
  beforeAll(async () => {
    const u = await ensureUser(app.db, { email: "lone-surrogates@example.test" });
    user = { userId: u.id, email: u.email, name: null };
  });

  it("a workspace name with a lone surrogate is 400", async () => {
    const res = await handleDashboardRequest(
      new Request(`${ORIGIN}/api/trpc/account.createWorkspace`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN },
        body: JSON.stringify({ name: "Acme \udc00" }),
      }),
      async () => user,
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.error.data.appCode).toBe("INVALID_REQUEST");
    expect(body.error.message).toMatch(/surrogate/);
  });
});

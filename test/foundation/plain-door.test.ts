// The REST door (server/api/rest/plain-door.ts) answers every /v1 route and method from plain values: the production
// server hands it node:http's request (scripts/rest-direct.mjs), the route's handler a web Request
// (server/api/rest/handler.ts). The same requests through each, into two workspaces of the same plan, get the same
// answers (status, every header but the request id, the body) and leave the same charge and history: JSON bodies,
// PATCH, DELETE, a raw lockfile, a CSV body, a compressed body, malformed JSON, an oversized body, an unknown field,
// an unknown route, no key, a 202, a browser's call and its preflight.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { handleRestRequest } from "../../server/api/rest/handler";
import { bodyRulesOf } from "../../server/api/rest/body-rules";
import { answerPlain } from "../../server/api/rest/plain-door";
import { appRouter } from "../../server/api/root";
import { flushLookupHistory } from "../../server/history/history";
import { createTestApp } from "../harness";
import { useFakeEpss, useFakePackageSources } from "../vulnerabilities/fake-sources";

useFakePackageSources();
useFakeEpss();
const app = await createTestApp();
const lockfile = readFileSync(path.join(__dirname, "../vulnerabilities/scan-fixtures/package-lock.json"));
const BASE = "http://127.0.0.1:3000";

interface Sent {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}
interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

async function viaPlain(s: Sent): Promise<Answer> {
  const headers: Record<string, string> = { ...s.headers };
  if (s.body !== undefined) headers["content-length"] = String(Buffer.byteLength(s.body));
  const body = s.body === undefined ? undefined : Buffer.from(s.body);
  const a = await answerPlain({ method: s.method, url: s.url, headers, body, base: BASE });
  return { status: a.status, headers: a.headers, text: a.body };
}

async function viaRoute(s: Sent): Promise<Answer> {
  const res = await handleRestRequest(
    new Request(`${BASE}${s.url}`, {
      method: s.method,
      headers: s.headers,
      body: s.body === undefined ? undefined : new Uint8Array(Buffer.from(s.body)),
    }),
  );
  return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
}

/** Without the request id (header and body), what names the workspace, its own rows' ids and the time. */
function comparable(a: Answer, ids: string[]) {
  const { "x-request-id": requestId, ...headers } = a.headers;
  expect(requestId).toMatch(/^req_/);
  let text = a.text.split(requestId!).join("<request>");
  for (const id of ids) text = text.split(id).join("<workspace>");
  text = text
    .replace(/\b(lkh|req|evt|lst|lsi|item|job|rul|whk)_[A-Za-z0-9_-]+/g, "<$1>")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z/g, "<time>")
    // The first of the two scans fills the sources' cache the second reads from.
    .replace(/"cached":(true|false)/g, '"cached":<either>')
    .replace(/"elapsed_ms":\d+/g, '"elapsed_ms":<ms>');
  return { status: a.status, headers, text };
}

const json = (key: string, method: string, url: string, body: unknown, extra: Record<string, string> = {}): Sent => ({
  method,
  url,
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...extra },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

/** One session of requests; `list` and `item` are the workspace's list and item once created (ids differ). */
function session(
  key: string,
  ids: { list: string; item: string },
): { name: string; sent: () => Sent; status: number }[] {
  const auth = { authorization: `Bearer ${key}` };
  return [
    {
      name: "POST JSON (create a list)",
      sent: () => json(key, "POST", "/v1/lists", { name: "vip", kind: "ip" }),
      status: 200,
    },
    {
      name: "PATCH",
      sent: () => json(key, "PATCH", `/v1/lists/${ids.list}`, { description: "the good ones" }),
      status: 200,
    },
    {
      name: "a CSV body",
      sent: () => ({
        method: "POST",
        url: `/v1/lists/${ids.list}/items`,
        headers: { ...auth, "content-type": "text/csv" },
        body: "198.51.100.0/24,,range",
      }),
      status: 200,
    },
    {
      name: "a gzip body",
      sent: () => ({
        ...json(key, "POST", `/v1/lists/${ids.list}/items`, {}),
        headers: { ...auth, "content-type": "application/json", "content-encoding": "gzip" },
        body: gzipSync(JSON.stringify({ items: [{ value: "203.0.113.9" }] })),
      }),
      status: 200,
    },
    {
      name: "GET the list",
      sent: () => ({ method: "GET", url: `/v1/lists/${ids.list}/items`, headers: auth }),
      status: 200,
    },
    {
      name: "DELETE an item",
      sent: () => ({ method: "DELETE", url: `/v1/lists/${ids.list}/items/${ids.item}`, headers: auth }),
      status: 200,
    },
    {
      name: "a raw lockfile",
      sent: () => ({
        method: "POST",
        url: "/v1/vulnerabilities/scan",
        headers: { ...auth, "content-type": "text/plain" },
        body: lockfile,
      }),
      status: 200,
    },
    {
      name: "a raw lockfile as CSV",
      sent: () => ({
        method: "POST",
        url: "/v1/vulnerabilities/scan",
        headers: { ...auth, "content-type": "text/plain", accept: "text/csv" },
        body: lockfile,
      }),
      status: 200,
    },
    {
      name: "a raw body that is not UTF-8",
      sent: () => ({
        method: "POST",
        url: "/v1/vulnerabilities/scan",
        headers: { ...auth, "content-type": "text/plain" },
        body: Buffer.from([0x7b, 0xed, 0xa0, 0x80, 0x7d]),
      }),
      status: 400,
    },
    { name: "malformed JSON", sent: () => json(key, "POST", "/v1/assess", "{"), status: 400 },
    {
      name: "JSON labelled as text",
      sent: () => ({ ...json(key, "POST", "/v1/lists", "{}"), headers: { ...auth, "content-type": "text/plain" } }),
      status: 400,
    },
    {
      name: "an unknown field",
      sent: () => json(key, "POST", "/v1/assess", { event: "login", ip: "8.8.8.8", x: 1 }),
      status: 400,
    },
    {
      name: "a body over the route's cap",
      sent: () =>
        json(
          key,
          "POST",
          "/v1/assess",
          JSON.stringify({ event: "login", ip: "8.8.8.8", metadata: { pad: "x".repeat(1_000_001) } }),
        ),
      status: 400,
    },
    {
      name: "a POST JSON lookup",
      sent: () => json(key, "POST", "/v1/assess", { event: "signup", ip: "8.8.8.8" }),
      status: 200,
    },
    { name: "a metered GET", sent: () => ({ method: "GET", url: "/v1/ip/8.8.8.8/geo", headers: auth }), status: 200 },
    {
      name: "202 (a bulk job)",
      sent: () => json(key, "POST", "/v1/jobs", { kind: "ip.geo", targets: ["8.8.4.4"] }),
      status: 202,
    },
    { name: "no such route", sent: () => json(key, "POST", "/v1/no/such/route", {}), status: 404 },
    { name: "HEAD", sent: () => ({ method: "HEAD", url: "/v1/usage", headers: auth }), status: 404 },
    {
      name: "no key",
      sent: () => ({
        ...json(key, "PATCH", `/v1/lists/${ids.list}`, {}),
        headers: { "content-type": "application/json" },
      }),
      status: 401,
    },
    {
      name: "a browser's call from a page not allowed",
      sent: () =>
        json(key, "POST", "/v1/assess", { event: "login", ip: "8.8.8.8" }, { origin: "https://elsewhere.example" }),
      status: 403,
    },
    {
      name: "a call from the service's own page",
      sent: () => json(key, "POST", "/v1/assess", { event: "login", ip: "8.8.8.8" }, { origin: BASE }),
      status: 200,
    },
    {
      name: "a preflight",
      sent: () => ({
        method: "OPTIONS",
        url: "/v1/assess",
        headers: {
          origin: BASE,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type",
        },
      }),
      status: 204,
    },
    {
      name: "an odd target read as a URL reads it",
      sent: () => ({ method: "GET", url: "/v1/./lookups/history?limit=%32", headers: auth }),
      status: 200,
    },
    {
      name: "DELETE the list",
      sent: () => ({ method: "DELETE", url: `/v1/lists/${ids.list}`, headers: auth }),
      status: 200,
    },
  ];
}

describe("the REST door through node:http's values and through a web Request", () => {
  it("answers a session alike, byte for byte, and leaves the same charge and history", async () => {
    const a = await app.seedWorkspace({ plans: ["suite_business"] });
    const b = await app.seedWorkspace({ plans: ["suite_business"] });
    const ids = { a: { list: "", item: "" }, b: { list: "", item: "" } };
    const sa = session(a.apiKey, ids.a);
    const sb = session(b.apiKey, ids.b);
    for (const [i, step] of sa.entries()) {
      const plain = await viaPlain(step.sent());
      const route = await viaRoute(sb[i]!.sent());
      if (step.name === "POST JSON (create a list)") {
        ids.a.list = JSON.parse(plain.text).id;
        ids.b.list = JSON.parse(route.text).id;
      }
      if (step.name === "GET the list") {
        ids.a.item = JSON.parse(plain.text).items[0].id;
        ids.b.item = JSON.parse(route.text).items[0].id;
      }
      expect(comparable(plain, [a.workspaceId, ids.a.list]), step.name).toEqual(
        comparable(route, [b.workspaceId, ids.b.list]),
      );
      expect(plain.status, `${step.name}: ${plain.text.slice(0, 300)}`).toBe(step.status);
    }
    await flushLookupHistory();
    const stored = async (workspaceId: string) => ({
      used: await app.used(workspaceId),
      ledger: (await app.db.usageLedger.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } })).map(
        (l) => [l.endpoint, l.units, l.reason],
      ),
      history: (await app.db.lookupHistory.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } })).map(
        (h) => [h.endpoint, h.target, h.units, h.status, h.code],
      ),
    });
    const [ta, tb] = await Promise.all([stored(a.workspaceId), stored(b.workspaceId)]);
    expect(ta).toEqual(tb);
    expect(ta.used).toBeGreaterThan(5);
  });

  it("refuses a declared length over the cap as too large, after the key check, as the route does", async () => {
    const ws = await app.seedWorkspace();
    const sent = {
      authorization: `Bearer ${ws.apiKey}`,
      "content-type": "application/json",
      "content-length": "1000001",
    };
    const over = await answerPlain({
      method: "POST",
      url: "/v1/assess",
      headers: sent,
      body: Buffer.from("{}"),
      base: BASE,
    });
    expect(over.status).toBe(400);
    expect(JSON.parse(over.body).error.message).toBe("The request body is larger than 1000000 bytes.");
    const { "content-length": _, ...unsized } = sent;
    const route = await viaRoute({ method: "POST", url: "/v1/assess", headers: unsized, body: "x".repeat(1_000_001) });
    expect(comparable({ ...over, text: over.body }, [])).toEqual(comparable(route, []));
    const noKey = await answerPlain({
      method: "POST",
      url: "/v1/assess",
      headers: { "content-type": "application/json", "content-length": "1000001" },
      body: Buffer.alloc(0),
      base: BASE,
    });
    expect(noKey.status).toBe(401);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("no GET route reads a body", () => {
    const procedures = appRouter._def.procedures as unknown as Record<
      string,
      { _def: { meta?: { openapi?: { method?: string } } } }
    >;
    const reading = Object.entries(procedures)
      .filter(([, p]) => p._def.meta?.openapi?.method === "GET")
      .filter(([name]) => bodyRulesOf(name).raw || bodyRulesOf(name).csvField)
      .map(([name]) => name);
    expect(reading).toEqual([]);
  });
});

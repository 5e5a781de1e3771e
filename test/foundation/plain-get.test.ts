// GET /v1/... has two doors: the plain one the production server takes (server/api/rest/plain-get.ts: node:http's
// request, no WHATWG objects, no tRPC caller) and the route's handler. The same requests through each, into two
// workspaces of the same plan, get the same answers (status, every header but the request id, the body) and charge
// the same units; requests the plain door must not answer (a browser's, a body, an odd path) are left to the route.
import { describe, expect, it } from "vitest";
import { answerPlain, takesPlainDoor } from "../../server/api/rest/assess-door";
import { handleRestRequest } from "../../server/api/rest/handler";
import { answerPlainGet, takesPlainGet } from "../../server/api/rest/plain-get";
import { appRouter } from "../../server/api/root";
import type { Meta } from "../../server/api/trpc";
import { createTestApp } from "../harness";

const app = await createTestApp();

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

async function viaPlain(url: string, headers: Record<string, string>): Promise<Answer> {
  expect(takesPlainGet("GET", url, headers), url).toBe(true);
  const a = await answerPlainGet({ method: "GET", url, headers });
  return { status: a.status, headers: a.headers, text: a.body };
}

async function viaRoute(url: string, headers: Record<string, string>): Promise<Answer> {
  const res = await handleRestRequest(new Request(`http://127.0.0.1:3000${url}`, { headers }));
  return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
}

/** Without the request id (header and body) and what names the workspace. */
function comparable(a: Answer, ids: string[]) {
  const { "x-request-id": requestId, ...headers } = a.headers;
  expect(requestId).toMatch(/^req_/);
  let text = a.text.split(requestId!).join("<request>");
  for (const id of ids) text = text.split(id).join("<workspace>");
  // Rows each workspace wrote on its own (history entries and their requests) and when.
  text = text
    .replace(/"(lkh|req|evt)_[A-Za-z0-9_-]+"/g, '"<$1>"')
    .replace(/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g, '"<time>"');
  return { status: a.status, headers, text };
}

const keyed = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });

describe("the plain GET door", () => {
  it("answers as the route does, and charges the same", async () => {
    const a = await app.seedWorkspace();
    const b = await app.seedWorkspace();
    const cases: { url: string; headers: (key: string) => Record<string, string> }[] = [
      { url: "/v1/ip/8.8.8.8/geo", headers: (k) => keyed(k) },
      { url: "/v1/ip/8.8.8.8/geo/", headers: (k) => keyed(k, { "x-request-id": "client-1" }) },
      { url: "/v1/ip/not-an-ip/geo", headers: (k) => keyed(k) },
      { url: "/v1/ip/10.0.0.1/geo?extra=1", headers: (k) => keyed(k) },
      { url: "/v1/ip/8.8.8.8/geo", headers: () => ({}) },
      { url: "/v1/ip/8.8.8.8/geo", headers: () => ({ authorization: "Bearer svc_live_wrong" }) },
      { url: "/v1/no/such/route", headers: (k) => keyed(k) },
      { url: "/v1/usage", headers: (k) => keyed(k) },
      { url: "/v1/lookups/history?limit=2", headers: (k) => keyed(k) },
      { url: "/v1/events.csv", headers: (k) => keyed(k) },
      { url: "/v1/rules", headers: (k) => keyed(k) },
      { url: "/v1/sources", headers: () => ({}) },
    ];
    for (const c of cases) {
      const plain = await viaPlain(c.url, c.headers(a.apiKey));
      const route = await viaRoute(c.url, c.headers(b.apiKey));
      expect(comparable(plain, [a.workspaceId]), c.url).toEqual(comparable(route, [b.workspaceId]));
    }
    expect(await app.used(a.workspaceId)).toBe(await app.used(b.workspaceId));
    expect(await app.used(a.workspaceId)).toBeGreaterThan(0);
  });

  it("leaves to the route what it must not answer", () => {
    const h = { authorization: "Bearer x" };
    expect(takesPlainGet("GET", "/v1/ip/8.8.8.8/geo", h)).toBe(true);
    expect(takesPlainGet("HEAD", "/v1/ip/8.8.8.8/geo", h)).toBe(false);
    expect(takesPlainGet("GET", "/v1/ip/8.8.8.8/geo", { ...h, origin: "https://shop.example" })).toBe(false);
    expect(takesPlainGet("GET", "/v1/ip/8.8.8.8/geo", { ...h, "content-length": "3" })).toBe(false);
    expect(takesPlainGet("GET", "/v1/ip/8.8.8.8/geo", { ...h, "transfer-encoding": "chunked" })).toBe(false);
    expect(takesPlainGet("GET", "/v1/projects/acme%2Fweb", h)).toBe(false);
    expect(takesPlainGet("GET", "/v1/ip/../usage", h)).toBe(false);
    expect(takesPlainGet("GET", "/v1//usage", h)).toBe(false);
    expect(takesPlainGet("GET", "/v1/dns/lookup?name=a b", h)).toBe(false);
    expect(takesPlainGet("GET", "/v1/openapi.json", h)).toBe(false);
    // The production server's one entry takes both plain doors.
    expect(takesPlainDoor("GET", "/v1/usage", h)).toBe(true);
    expect(answerPlain).toBeTypeOf("function");
  });

  it("no GET route reads a body (the door reads none)", () => {
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;
    const reading = Object.entries(procedures)
      .filter(([, p]) => p._def.meta?.openapi?.method === "GET")
      .filter(([, p]) => p._def.meta?.rawBody || p._def.meta?.csvBody)
      .map(([path]) => path);
    expect(reading).toEqual([]);
  });
});

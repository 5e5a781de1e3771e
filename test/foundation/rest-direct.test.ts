// /v1 without Next's generic request path (scripts/rest-direct.mjs): the production server hands a /v1 request to
// the compiled route's handler as a web Request and writes its web Response back. The request the route sees must
// keep the method, URL, headers and body, with the x-forwarded-* Next's server fills in when a client sent none,
// and the answer the client gets must be the route's (status, headers, body; HEAD with the length and no body).
// (The URL's scheme is the connection's: a client-sent X-Forwarded-Proto does not change it, unlike under Next;
// the one rule for the request's origin is server/http/origin.ts.)
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import net, { type AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFront, PEER_ADDRESS_HEADER } from "../../scripts/http-front.mjs";
import {
  directOr,
  DRAIN_LIMIT_BYTES,
  loadRestRoute,
  serveDirect,
  takesDirect,
  type RestRoute,
} from "../../scripts/rest-direct.mjs";
import { DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT } from "../../app/v1/[[...path]]/route";
import { createTestApp, expectUndeliveredRefund, type TestApp } from "../harness";

let app: TestApp;
let seen: { method: string; url: string; headers: Record<string, string>; body: string } | null = null;

/** A route that answers what it was given, to see the request exactly as the route receives it. */
const echoRoute: RestRoute = Object.fromEntries(
  ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"].map((m) => [
    m,
    async (req: Request) => {
      seen = { method: req.method, url: req.url, headers: Object.fromEntries(req.headers), body: await req.text() };
      const headers = new Headers({ "Content-Type": "text/plain", "X-Echo": "1" });
      headers.append("Set-Cookie", "a=1; Path=/");
      headers.append("Set-Cookie", "b=2; Path=/");
      return new Response(req.method === "DELETE" ? null : `echo ${req.method}`, {
        status: req.method === "DELETE" ? 204 : 201,
        headers,
      });
    },
  ]),
);
/** The route as app/v1/[[...path]]/route.ts exports it, the REST door on its handlers. */
const realRoute: RestRoute = { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS };
/** The same route without its door: the server hands it web Requests (as it does a build without the door). */
const webRoute: RestRoute = Object.fromEntries(
  Object.entries(realRoute).map(([m, handle]) => [m, (r: Request) => handle(r)]),
);
const throwingRoute: RestRoute = {
  GET: async () => {
    throw new Error("boom");
  },
};

async function listen(route: RestRoute): Promise<{ base: string; close: () => Promise<void> }> {
  // As scripts/server.mjs wires them: the front, then the route.
  const server = http.createServer(
    createFront((req: IncomingMessage, res: ServerResponse) => serveDirect(route, req, res)),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return { base: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let echo: Awaited<ReturnType<typeof listen>>;
let real: Awaited<ReturnType<typeof listen>>;
let throwing: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  app = await createTestApp();
  [echo, real, throwing] = await Promise.all([listen(echoRoute), listen(realRoute), listen(throwingRoute)]);
});
afterAll(async () => {
  await Promise.all([echo.close(), real.close(), throwing.close()]);
});

describe("which requests go straight to the route", () => {
  it.each([
    ["/v1", true],
    ["/v1/", true],
    ["/v1?x=1", true],
    ["/v1/ip/8.8.8.8/geo", true],
    ["/v1/vulnerabilities/npm/left-pad/", true],
    ["/v1x", false],
    ["/dashboard", false],
    ["/api/trpc/x", false],
    ["/v1/ip/%2e%2e/x", false],
    ["/v1/../dashboard", false],
    ["/v1/./ip", false],
    ["/v1/ip/..", false],
    ["/v1/ip/%ff/geo", false],
    // A "%" in the query alone: Next would have rewritten `%ff` to the U+FFFD it reads before the door saw it.
    ["/v1/vulnerabilities/kev/?query=%ff", true],
    ["/v1/vulnerabilities/kev/?query=100%25", true],
    // A "%" in the path and a query the door refuses: Next would rewrite the query, so the door gets it as sent ...
    ["/v1/vulnerabilities/packages/npm/%40babel%2Fcore/?version=%ff", true],
    ["/v1/vulnerabilities/packages/npm/%40babel%2Fcore/?version=7.0.0&x=%E0%A4", true],
    // ... but a readable query, or a path proxy.ts answers (undecodable, an encoded dot segment), stays Next's.
    ["/v1/vulnerabilities/packages/npm/%40babel%2Fcore/?version=7.0.0", false],
    ["/v1/vulnerabilities/packages/npm/%40babel%2Fcore/?version=%25ff", false],
    ["/v1/vulnerabilities/packages/npm/%40babel%2Fcore/", false],
    ["/v1/ip/%ff/geo?x=%ff", false],
    ["/v1/ip/%2e%2e/geo?x=%ff", false],
  ])("%s -> %s", (url, direct) => {
    expect(takesDirect(url)).toBe(direct);
  });
});

describe("the request the route sees", () => {
  it("keeps method, URL, headers and body, and fills in x-forwarded-* as Next does when the client sent none", async () => {
    const res = await fetch(`${echo.base}/v1/assess?x=1`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Api-Key": "k" },
      body: '{"a":1}',
    });
    expect(res.status).toBe(201);
    expect(seen).toMatchObject({ method: "POST", url: `${echo.base}/v1/assess?x=1`, body: '{"a":1}' });
    expect(seen!.headers).toMatchObject({
      "content-type": "application/json",
      "x-api-key": "k",
      "x-forwarded-for": "127.0.0.1",
      "x-forwarded-proto": "http",
      "x-forwarded-host": echo.base.slice("http://".length),
    });
  });

  it("keeps the x-forwarded-* a client sent (as Next does; whether to trust them is the origin rule's business)", async () => {
    await fetch(`${echo.base}/v1/ip/1.2.3.4`, {
      headers: { "X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https" },
    });
    expect(seen!.headers["x-forwarded-for"]).toBe("203.0.113.9");
    expect(seen!.headers["x-forwarded-proto"]).toBe("https");
  });

  it("carries the connection's own address in the peer header, replacing one the client forged", async () => {
    await fetch(`${echo.base}/v1/ip/1.2.3.4`, { headers: { [PEER_ADDRESS_HEADER]: "198.51.100.7" } });
    expect(seen!.headers[PEER_ADDRESS_HEADER]).toBe("127.0.0.1");
  });

  it("builds the URL on localhost when the Host header is not a host name", async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${echo.base}/v1/ip/1.2.3.4`, { headers: { Host: "bad host/x" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(answer).toBe(201);
    expect(seen!.url).toBe("http://localhost/v1/ip/1.2.3.4");
  });
});

describe("the answer the client gets", () => {
  it("is the route's status, headers (every Set-Cookie kept apart) and body, with its length", async () => {
    const res = await fetch(`${echo.base}/v1/x`);
    expect(res.status).toBe(201);
    expect(res.headers.get("x-echo")).toBe("1");
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(res.headers.get("content-length")).toBe(String("echo GET".length));
    expect(await res.text()).toBe("echo GET");
  });

  it("answers HEAD with the length of the body and no body", async () => {
    const res = await fetch(`${echo.base}/v1/x`, { method: "HEAD" });
    expect(res.headers.get("content-length")).toBe(String("echo HEAD".length));
    expect(await res.text()).toBe("");
  });

  it("answers 204 without a body or a length", async () => {
    const res = await fetch(`${echo.base}/v1/x`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.headers.get("content-length")).toBeNull();
  });

  it("turns a route that throws into the spec's 500 body", async () => {
    const res = await fetch(`${throwing.base}/v1/x`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { code: "INTERNAL_ERROR", message: "Internal error." } });
  });
});

describe("through the real REST handler", () => {
  it("a metered lookup answers 200 with its quota headers and charges one unit; a JSON POST reaches the procedure", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const geo = await fetch(`${real.base}/v1/ip/8.8.8.8/geo`, { headers: { Authorization: `Bearer ${ws.apiKey}` } });
    expect(geo.status).toBe(200);
    expect(geo.headers.get("x-service-quota-used")).toBe("1");
    expect(geo.headers.get("cache-control")).toBe("private, no-store");
    const assess = await fetch(`${real.base}/v1/assess`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ws.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ event: "signup", ip: "8.8.8.8" }),
    });
    expect(assess.status).toBe(200);
    expect((await assess.json()).event).toBe("signup");
    expect(await app.used(ws.workspaceId)).toBe(2);
  });

  it("a refused request is the handler's error body", async () => {
    const res = await fetch(`${real.base}/v1/ip/8.8.8.8/geo`);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("UNAUTHORIZED");
  });

  it("a query whose escapes are not UTF-8 reaches the door as sent and is refused, free", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await fetch(`${real.base}/v1/vulnerabilities/kev/?query=%ff`, {
      headers: { Authorization: `Bearer ${ws.apiKey}` },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/^query: the query parameter is not valid percent-encoded UTF-8/);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

/** A stand-in for Next's handler that says it was reached (the tests wired as scripts/server.mjs wires the front). */
function throughNext(_req: IncomingMessage, res: ServerResponse) {
  res.writeHead(502, { "Content-Type": "text/plain" });
  res.end("through Next");
}

describe('a path holding "%" with a query that is not UTF-8', () => {
  it("reaches the door as sent, as scripts/server.mjs chooses, and is refused after authentication, free", async () => {
    // Wired as scripts/server.mjs wires it: the route when takesDirect says so, else Next (here a stand-in that says
    // it was reached: Next would have rewritten `%ff` to `%EF%BF%BD` before the door saw it).
    const server = http.createServer(createFront(directOr(realRoute, throughNext)));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
      const url = `${base}/v1/vulnerabilities/packages/npm/%40babel%2Fcore/?version=%ff`;
      const res = await fetch(url, { headers: { Authorization: `Bearer ${ws.apiKey}` } });
      expect(res.status).toBe(400);
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
      expect((await res.json()).error).toMatchObject({
        code: "INVALID_REQUEST",
        message: expect.stringMatching(/^version: the query parameter is not valid percent-encoded UTF-8/),
      });
      expect(await app.used(ws.workspaceId)).toBe(0);
      // The door's order is kept: without a key, the same request is 401 (authentication comes first).
      const anonymous = await fetch(url);
      expect(anonymous.status).toBe(401);
      expect((await anonymous.json()).error.code).toBe("UNAUTHORIZED");
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('a DELETE or OPTIONS with a body, on a path holding "%"', () => {
  it("is answered by the door, never handed to Next after the front dropped its body", async () => {
    // Next waits for the end of a DELETE's or OPTIONS's body before its proxy stage (body-streams.js
    // getCloneableBody): once the front has read and dropped that body, the end has passed and the request hung with no
    // answer. Wired as scripts/server.mjs wires it, with a stand-in for Next that says it was reached.
    const server = http.createServer(createFront(directOr(realRoute, throughNext)));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
      const auth = { Authorization: `Bearer ${ws.apiKey}` };
      for (const method of ["DELETE", "OPTIONS"]) {
        const res = await fetch(`${base}/v1/lists/lst_none%20`, { method, headers: auth, body: "x" });
        expect(await res.text(), method).not.toBe("through Next");
        if (method === "DELETE") expect(res.status).toBe(404);
        else expect(res.status).toBeLessThan(500);
      }
      // Without a body it is Next's, as before (its proxy answers undecodable paths).
      expect(await (await fetch(`${base}/v1/lists/lst_none%20`, { method: "DELETE", headers: auth })).text()).toBe(
        "through Next",
      );
      // A path that cannot be decoded is the spec's 404 from the front itself, as Next's proxy answers it.
      for (const method of ["DELETE", "OPTIONS"]) {
        const res = await fetch(`${base}/v1/%FF`, { method, headers: auth, body: "x" });
        expect(res.status, method).toBe(404);
        expect((await res.json()).error.code).toBe("LOOKUP_NOT_FOUND");
      }
      expect(await app.used(ws.workspaceId)).toBe(0);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

/** Sends a chunked POST of `chunks` x 64 KiB, one chunk per tick, and resolves with the answer as soon as it comes. */
function chunkedPost(
  base: string,
  path: string,
  headers: Record<string, string>,
  chunks: number,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; sentChunks: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    let settle = () => {};
    const req = http.request(
      `${base}${path}`,
      { method: "POST", headers: { ...headers, "Content-Type": "application/json", "Transfer-Encoding": "chunked" } },
      (res) => {
        answered = true;
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        settle = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, sentChunks: sent });
        // The server closes the connection after its answer while this side may still be writing.
        res.on("end", settle);
        res.on("close", settle);
      },
    );
    req.on("error", (err) => (answered ? settle() : reject(err)));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      if (answered || sent >= chunks) return void req.end();
      sent++;
      req.write(chunk, () => setImmediate(pump));
    };
    req.write("{");
    pump();
  });
}

describe("request bodies on the direct path", () => {
  it("a chunked body over the route's 1 MB cap gets the 400 in JSON, and charges nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await chunkedPost(real.base, "/v1/assess", { Authorization: `Bearer ${ws.apiKey}` }, 32);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe("INVALID_REQUEST");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("a body the route never reads is not read: a request without a key is refused before its 64 MiB body is sent", async () => {
    const res = await chunkedPost(real.base, "/v1/assess", {}, 1024);
    expect(res.status).toBe(401);
    expect(res.sentChunks).toBeLessThan(1024);
  });
});

/**
 * Sends raw bytes on a new connection and resolves with everything the server wrote: once `complete` says it is all
 * there (then this side closes), or when the server closes, or `closeAfterMs` after sending (this side closes).
 */
function rawExchange(
  base: string,
  bytes: string,
  opts: { complete?: (received: string) => boolean; closeAfterMs?: number },
): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    let received = "";
    socket.on("data", (c) => {
      received += c;
      if (opts.complete?.(received)) socket.destroy();
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
    socket.write(bytes);
    if (opts.closeAfterMs !== undefined) setTimeout(() => socket.destroy(), opts.closeAfterMs);
  });
}

/** The HTTP/1.1 answers in `received` whose bodies have arrived whole (by their Content-Length). */
function wholeAnswers(received: string): { head: string; body: string }[] {
  const answers: { head: string; body: string }[] = [];
  let rest = received;
  for (;;) {
    const end = rest.indexOf("\r\n\r\n");
    if (end < 0) return answers;
    const head = rest.slice(0, end);
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? "0");
    const body = rest.slice(end + 4, end + 4 + length);
    if (Buffer.byteLength(body) < length) return answers;
    answers.push({ head, body });
    rest = rest.slice(end + 4 + length);
  }
}

describe("POST /v1/assess through the REST door (server/api/rest/plain-door.ts)", () => {
  const assessBody = JSON.stringify({ event: "login", ip: "8.8.8.8", user_id: "u1" });
  // The real route, counting the requests its door answers.
  let doorCalls = 0;
  const counted: RestRoute = {
    ...realRoute,
    POST: Object.assign((r: Request) => POST(r), {
      plain: {
        answer: (r: Parameters<typeof POST.plain.answer>[0]) => (doorCalls++, POST.plain.answer(r)),
      },
    }),
  };
  let door: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    door = await listen(counted);
  });
  afterAll(() => door.close());

  it("answers with the door's status, headers and a Content-Length, and a kept-alive connection serves the next request", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const one = (id: string) =>
      `POST /v1/assess HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ws.apiKey}\r\n` +
      `Content-Type: application/json\r\nX-Request-Id: ${id}\r\nContent-Length: ${assessBody.length}\r\n\r\n${assessBody}`;
    const received = await rawExchange(door.base, one("first") + one("second"), {
      complete: (r) => wholeAnswers(r).length === 2,
    });
    expect(doorCalls).toBe(2);
    const answers = wholeAnswers(received);
    expect(answers).toHaveLength(2);
    for (const [i, { head, body }] of answers.entries()) {
      expect(head).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(head).toMatch(/\r\ncontent-type: application\/json; charset=utf-8/i);
      expect(head).toMatch(/\r\ncache-control: private, no-store/i);
      expect(head).toMatch(/\r\nx-request-id: req_/i);
      expect(head).toContain(`x-client-request-id: ${i === 0 ? "first" : "second"}`);
      expect(head).toMatch(/\r\nx-service-quota-used: \d+/i);
      expect(JSON.parse(body)).toMatchObject({ event: "login", decision: expect.any(String) });
    }
    expect(await app.used(ws.workspaceId)).toBe(2);
  });

  it("answers a browser's call (an Origin) too: a page not allowed is refused by the CORS check", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const before = doorCalls;
    const res = await fetch(`${door.base}/v1/assess`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${ws.apiKey}`,
        "Content-Type": "application/json",
        Origin: "https://elsewhere.example",
      },
      body: assessBody,
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("ORIGIN_FORBIDDEN");
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(doorCalls).toBe(before + 1);
  });

  it("answers nothing and charges nothing when the client goes away before its body ends", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const before = doorCalls;
    // The bytes sent are a whole assessment already; the declared length says more is coming.
    const received = await rawExchange(
      door.base,
      `POST /v1/assess HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ws.apiKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${assessBody.length + 50}\r\n\r\n${assessBody}`,
      { closeAfterMs: 300 },
    );
    expect(received).toBe("");
    await new Promise((r) => setTimeout(r, 300));
    // The door was asked, and found the body broken off: a 400 nobody reads, nothing charged.
    expect(doorCalls).toBe(before + 1);
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
    // The server is still there for the next client.
    const ok = await fetch(`${door.base}/v1/assess`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ws.apiKey}`, "Content-Type": "application/json" },
      body: assessBody,
    });
    expect(ok.status).toBe(200);
  });

  it("gives the unit back when the answer cannot be delivered: a ledger row says why, and history reads 499", async () => {
    let answered!: () => void;
    const computed = new Promise<void>((r) => (answered = r));
    const door = POST.plain;
    const late = http.createServer((req, res) => {
      // The door's answer waits, once computed, until the client's connection has closed.
      const waiting = Object.assign((r: Request) => POST(r), {
        plain: {
          answer: async (r: Parameters<typeof door.answer>[0]) => {
            const answer = await door.answer(r);
            answered();
            if (!req.socket.destroyed) await new Promise((done) => req.socket.once("close", done));
            return answer;
          },
        },
      });
      void serveDirect({ ...realRoute, POST: waiting }, req, res);
    });
    await new Promise<void>((r) => late.listen(0, "127.0.0.1", r));
    try {
      const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
      const socket = net.connect((late.address() as AddressInfo).port, "127.0.0.1");
      let received = "";
      socket.on("data", (c) => (received += c));
      socket.write(
        `POST /v1/assess HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ws.apiKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${assessBody.length}\r\n\r\n${assessBody}`,
      );
      await computed;
      socket.destroy();
      await expectUndeliveredRefund(app, ws.workspaceId, "assess");
      expect(received).toBe("");
    } finally {
      await new Promise<void>((r) => late.close(() => r()));
    }
  });
});

describe("loading the compiled route", () => {
  it("is null for a build folder without the route (the server then sends /v1 through Next)", () => {
    expect(loadRestRoute(mkdtempSync(path.join(tmpdir(), "no-build-")))).toBeNull();
  });
});

describe("the REST door and the web Request path of the production server answer alike", () => {
  let web: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    web = await listen(webRoute);
  });
  afterAll(() => web.close());

  /** The answer without what differs by request (its id) and the date. */
  const comparable = (res: { status: number; headers: http.IncomingHttpHeaders; body: string }) => {
    const { "x-request-id": id, date: _date, ...headers } = res.headers;
    return { status: res.status, headers, body: res.body.split(String(id)).join("<request>") };
  };

  it("bodies over the cap (declared or chunked), compressed, broken JSON, a lockfile, HEAD and a preflight", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const auth = { Authorization: `Bearer ${ws.apiKey}` };
    const cases: {
      name: string;
      send: (base: string) => Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>;
    }[] = [
      { name: "a chunked body over the cap", send: (base) => chunkedPost(base, "/v1/assess", auth, 32) },
      {
        name: "a declared length over the cap",
        send: (base) =>
          rawRequest(
            base,
            "POST",
            "/v1/assess",
            { ...auth, "Content-Type": "application/json" },
            "x".repeat(1_000_001),
          ),
      },
      {
        name: "a gzip body",
        send: (base) =>
          rawRequest(
            base,
            "POST",
            "/v1/assess",
            { ...auth, "Content-Type": "application/json", "Content-Encoding": "gzip" },
            gzipSync(JSON.stringify({ event: "login", ip: "not-an-ip" })),
          ),
      },
      {
        name: "an unknown encoding",
        send: (base) =>
          rawRequest(
            base,
            "POST",
            "/v1/assess",
            { ...auth, "Content-Type": "application/json", "Content-Encoding": "zstd" },
            "{}",
          ),
      },
      {
        name: "broken JSON",
        send: (base) => rawRequest(base, "POST", "/v1/assess", { ...auth, "Content-Type": "application/json" }, "{"),
      },
      {
        name: "a lockfile that is not one",
        send: (base) =>
          rawRequest(
            base,
            "POST",
            "/v1/vulnerabilities/scan",
            { ...auth, "Content-Type": "text/plain" },
            "not a lockfile",
          ),
      },
      { name: "HEAD", send: (base) => rawRequest(base, "HEAD", "/v1/usage", auth) },
      {
        name: "a preflight",
        send: (base) =>
          rawRequest(base, "OPTIONS", "/v1/assess", {
            Origin: base,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
          }),
      },
      { name: "no key", send: (base) => rawRequest(base, "DELETE", "/v1/lists/lst_nope", {}) },
    ];
    for (const c of cases) {
      const viaDoor = await c.send(real.base);
      const viaWeb = await c.send(web.base);
      expect(viaDoor.status, c.name).toBeLessThan(500);
      const door = comparable(viaDoor);
      const webbed = comparable(viaWeb);
      // The preflight's allowed origin is the server's own, which differs by port.
      if (c.name === "a preflight") {
        expect(door.headers["access-control-allow-origin"]).toBe(real.base);
        delete door.headers["access-control-allow-origin"];
        delete webbed.headers["access-control-allow-origin"];
      }
      expect(door, c.name).toEqual(webbed);
    }
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

describe("a body the door leaves unread", () => {
  /**
   * Sends a chunked POST /v1/assess without a key, then keeps sending chunks of `chunk` bytes until `total` are sent or
   * the server closes; what it received and how much it sent.
   */
  function endlessUpload(
    base: string,
    total: number,
    end: boolean,
  ): Promise<{ received: string; sent: number; closedByServer: boolean }> {
    const { port } = new URL(base);
    const piece = Buffer.alloc(256 * 1024, 0x61);
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), "127.0.0.1");
      let received = "";
      let sent = 0;
      let closedByServer = true;
      socket.on("data", (c) => (received += c));
      socket.on("error", () => {});
      socket.on("close", () => resolve({ received, sent, closedByServer }));
      socket.write(
        "POST /v1/assess HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
      );
      const pump = () => {
        while (!socket.destroyed && sent < total) {
          sent += piece.length;
          socket.write(`${piece.length.toString(16)}\r\n`);
          socket.write(piece);
          if (!socket.write("\r\n")) return void socket.once("drain", pump);
        }
        if (socket.destroyed) return;
        if (end) socket.write("0\r\n\r\n");
        // Then wait: the server either keeps the connection (a drained body) or has closed it.
        setTimeout(() => {
          closedByServer = socket.destroyed || socket.readableEnded;
          socket.destroy();
        }, 500);
      };
      pump();
    });
  }

  it("is drained after the answer, so a client that finishes its upload reads it", async () => {
    const r = await endlessUpload(real.base, 2 * 1024 * 1024, true);
    expect(r.received).toMatch(/^HTTP\/1\.1 401 /);
    expect(r.sent).toBe(2 * 1024 * 1024);
    expect(r.closedByServer).toBe(false);
  });

  it("is drained no further than DRAIN_LIMIT_BYTES: past it the server closes the connection", async () => {
    const r = await endlessUpload(real.base, DRAIN_LIMIT_BYTES * 3, false);
    expect(r.received).toMatch(/^HTTP\/1\.1 401 /);
    expect(r.sent).toBeGreaterThan(DRAIN_LIMIT_BYTES);
    expect(r.sent).toBeLessThan(DRAIN_LIMIT_BYTES * 3);
  });
});

/** One request over a new connection; the answer as it arrived. */
function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

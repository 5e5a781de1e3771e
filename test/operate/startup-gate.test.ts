// While the service starts (issue 22, item 11), the production server answers the probes itself instead of letting
// them wait for Next's start-up: /healthz 200, /readyz 503 "starting" naming the step, at once; everything else goes
// on to the handler; once start-up is done, the probes go on too (to Next's routes).
import http, { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT } from "../../app/v1/[[...path]]/route";
import { createFront } from "../../scripts/http-front.mjs";
import { answeredWithoutDatabase, directOr, type RestRoute } from "../../scripts/rest-direct.mjs";
import { startBeforeListening, startupGate } from "../../scripts/startup-gate.mjs";
import { processState } from "../../server/operate/state";

let server: Server;
let base = "";
let reachedHandler: string[] = [];

beforeAll(async () => {
  // A handler that never answers: what a request meets while Next is still running the start-up.
  server = createServer(
    startupGate((req: { url?: string }, res: { end(b: string): void }) => {
      reachedHandler.push(req.url ?? "");
      if (processState().started) res.end("from the handler");
    }),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  Object.assign(processState(), {
    started: undefined,
    startupStep: undefined,
    startupError: undefined,
    storeOpened: undefined,
    waitingForDatabase: undefined,
  });
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("probes during start-up", () => {
  it("/healthz is 200 and /readyz 503 starting, naming the step, without reaching the busy handler", async () => {
    Object.assign(processState(), { started: false, startupStep: "loading shipped data" });
    reachedHandler = [];
    const t0 = performance.now();
    const [live, ready] = await Promise.all([fetch(`${base}/healthz`), fetch(`${base}/readyz`)]);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    expect(ready.status).toBe(503);
    expect(ready.headers.get("retry-after")).toBe("1");
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toEqual({
      status: "starting",
      checks: { startup: { status: "not_ready", detail: "starting: loading shipped data" } },
    });
    expect(reachedHandler).toEqual([]);
  });

  it("names a failed start-up", async () => {
    Object.assign(processState(), { started: false, startupError: "SERVICE_ENCRYPTION_KEY is not set" });
    const body = await (await fetch(`${base}/readyz`)).json();
    expect(body).toMatchObject({ status: "not_ready" });
    expect(body.checks.startup.detail).toBe("start-up failed: SERVICE_ENCRYPTION_KEY is not set");
    Object.assign(processState(), { startupError: undefined });
  });

  it("hands every request on once start-up is done", async () => {
    Object.assign(processState(), { started: true });
    reachedHandler = [];
    expect(await (await fetch(`${base}/readyz`)).text()).toBe("from the handler");
    expect(reachedHandler).toEqual(["/readyz"]);
  });
});

describe("while start-up waits for a database that cannot be reached", () => {
  it("answers the probes, and every other request 503 at once instead of holding it", async () => {
    Object.assign(processState(), {
      started: false,
      waitingForDatabase: "connection failed (ECONNREFUSED)",
      startupStep: "waiting for the database (attempt 2 failed: connection failed (ECONNREFUSED); next attempt in 2 s)",
    });
    reachedHandler = [];
    try {
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect((await ready.json()).checks.startup.detail).toBe(
        "starting: waiting for the database (attempt 2 failed: connection failed (ECONNREFUSED); next attempt in 2 s)",
      );
      const api = await fetch(`${base}/v1/ip/8.8.8.8/geo`, { headers: { accept: "text/html" } });
      expect(api.status).toBe(503);
      expect(api.headers.get("retry-after")).toBe("5");
      expect(await api.json()).toEqual({
        error: {
          code: "UPSTREAM_UNAVAILABLE",
          message: "The service is starting and cannot reach its database yet. Try again in a few seconds.",
        },
      });
      const page = await fetch(`${base}/dashboard`, { headers: { accept: "text/html,*/*" } });
      expect(page.status).toBe(503);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await page.text()).toContain("cannot reach its database yet");
      expect(reachedHandler).toEqual([]);
    } finally {
      Object.assign(processState(), { waitingForDatabase: undefined, startupStep: undefined });
    }
  });
});

describe("while start-up waits for the database, what needs none is answered as once started", () => {
  /** A request as node:http sends it (an Origin header included), with its status, headers and body. */
  function send(base: string, method: string, path: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("an unknown /v1 route or method is 404 and a preflight is answered, from the REST door; the rest is 503", async () => {
    // Wired as scripts/server.mjs wires it, with the real route's REST door and no database behind it (Next, which
    // would hold the request for the whole start-up, is a stand-in that must not be reached).
    const route: RestRoute = { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS };
    const toNext: string[] = [];
    const gated = createServer(
      createFront(
        startupGate(
          directOr(route, (req: IncomingMessage, res: ServerResponse) => {
            toNext.push(req.url ?? "");
            res.end("from Next");
          }),
          { answersWithoutDatabase: (req: IncomingMessage) => answeredWithoutDatabase(route, req) },
        ),
      ),
    );
    await new Promise<void>((r) => gated.listen(0, "127.0.0.1", () => r()));
    const own = `http://127.0.0.1:${(gated.address() as AddressInfo).port}`;
    Object.assign(processState(), { started: false, waitingForDatabase: "connection failed (ECONNREFUSED)" });
    try {
      for (const [method, path] of [
        ["GET", "/v1/no-such-route"],
        ["DELETE", "/v1/ip/8.8.8.8/geo"],
        ["POST", "/v1/ip/8.8.8.8/geo"],
      ]) {
        const res = await send(own, method, path);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(JSON.parse(res.body).error.code).toBe("LOOKUP_NOT_FOUND");
        expect(res.headers["x-request-id"]).toMatch(/^req_/);
      }
      const preflight = await send(own, "OPTIONS", "/v1/assess", {
        Origin: own,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers["access-control-allow-origin"]).toBe(own);
      expect(preflight.headers["access-control-allow-methods"]).toBe("POST");
      // A preflight for no route is 404; one from an origin no setting lists is refused, without the database.
      const nowhere = await send(own, "OPTIONS", "/v1/no-such-route", {
        Origin: own,
        "Access-Control-Request-Method": "GET",
      });
      expect(nowhere.status).toBe(404);
      const foreign = await send(own, "OPTIONS", "/v1/assess", {
        Origin: "https://elsewhere.example",
        "Access-Control-Request-Method": "POST",
      });
      expect(foreign.status).toBe(403);
      expect(JSON.parse(foreign.body).error.code).toBe("ORIGIN_FORBIDDEN");
      // A known route needs the database: 503 at once, as before.
      const lookup = await send(own, "GET", "/v1/ip/8.8.8.8/geo");
      expect(lookup.status).toBe(503);
      expect(JSON.parse(lookup.body).error.code).toBe("UPSTREAM_UNAVAILABLE");
      // So does a preflight whose origin only a publishable key's list could allow (POST /device/check).
      const publishable = await send(own, "OPTIONS", "/v1/device/check", {
        Origin: "https://shop.example",
        "Access-Control-Request-Method": "POST",
      });
      expect(publishable.status).toBe(503);
      expect(toNext).toEqual([]);
    } finally {
      Object.assign(processState(), { waitingForDatabase: undefined });
      gated.closeAllConnections();
      await new Promise((r) => gated.close(r));
    }
  });
});

describe("shutdown before start-up finished", () => {
  it("reads draining", async () => {
    Object.assign(processState(), { started: false, shuttingDown: true });
    try {
      const res = await fetch(`${base}/readyz`);
      expect(res.status).toBe(503);
      expect((await res.json()).status).toBe("draining");
    } finally {
      Object.assign(processState(), { shuttingDown: false });
    }
  });
});

describe("the start-up behind a closed port", () => {
  it("starts the service through a private listener and returns once the store is open, not before", async () => {
    Object.assign(processState(), { started: false, storeOpened: false, startupError: undefined });
    const seen: string[] = [];
    let returned = false;
    // Stands for Next: the first request runs the start-up, which opens the store a moment later.
    const handler = (req: { url?: string }, res: { end(b: string): void }) => {
      seen.push(req.url ?? "");
      setTimeout(() => {
        expect(returned).toBe(false);
        processState().storeOpened = true;
        res.end("{}");
      }, 200);
    };
    await startBeforeListening(handler);
    returned = true;
    expect(processState().storeOpened).toBe(true);
    expect(seen).toEqual(["/v1/openapi.json"]);
    Object.assign(processState(), { storeOpened: undefined });
  });

  it("returns when start-up waits for a database that refuses, so the public port opens meanwhile", async () => {
    Object.assign(processState(), { started: false, storeOpened: false });
    const t0 = performance.now();
    const handler = () => {
      setTimeout(() => (processState().waitingForDatabase = "connection failed (ECONNREFUSED)"), 100);
    };
    await startBeforeListening(handler);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(processState().storeOpened).toBe(false);
    Object.assign(processState(), { waitingForDatabase: undefined, storeOpened: undefined });
  });

  it("returns when the start-up failed, so the public port opens and /readyz says why", async () => {
    Object.assign(processState(), { started: false, storeOpened: false });
    const handler = () => {
      processState().startupError = "database did not answer";
    };
    await startBeforeListening(handler);
    expect(processState().storeOpened).toBe(false);
    Object.assign(processState(), { startupError: undefined, storeOpened: undefined });
  });
});

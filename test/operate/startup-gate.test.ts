// While the service starts (issue 22, item 11), the production server answers the probes itself instead of letting
// them wait for Next's start-up: /healthz 200, /readyz 503 "starting" naming the step, at once; everything else goes
// on to the handler; once start-up is done, the probes go on too (to Next's routes).
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

// The typed client (clients/typescript) against a running server: the REST API served over HTTP on 127.0.0.1.
// Typed data and errors, quota headers, retries that honour Retry-After (a 503 included: its units were given back),
// and no retry of a metered request lost on the network (it may have been answered) unless the caller opts in.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient, readQuota } from "../../clients/typescript/src/index";
import { handleRestRequest } from "../../server/api/rest/handler";
import type { TestApp } from "../harness";
import { startLinksApp } from "../links/setup";

let app: TestApp;
let server: Server;
let baseUrl = "";
const seen: string[] = [];

beforeAll(async () => {
  app = await startLinksApp();
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push(`${req.method} ${req.url}`);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const answer = await handleRestRequest(
      new Request(`http://127.0.0.1${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body,
      }),
    );
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
});

afterAll(() => new Promise((r) => server.close(r)));

describe("typed client", () => {
  it("returns typed data and readable quota headers", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const api = createServiceClient({ baseUrl, apiKey: ws.apiKey });
    const { data, error, response } = await api.GET("/ip/{ip}/geo", { params: { path: { ip: "8.8.8.8" } } });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ ip: "8.8.8.8" });
    const quota = readQuota(response);
    expect(quota).toMatchObject({ limit: 25_000, used: 1, remaining: 24_999 });
    expect(quota?.reset.getUTCDate()).toBe(1);
  });

  it("returns the typed error object", async () => {
    const api = createServiceClient({ baseUrl, apiKey: "sk_not_a_key" });
    const { data, error, response } = await api.GET("/ip/{ip}/geo", { params: { path: { ip: "8.8.8.8" } } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expect(error?.error.code).toBe("UNAUTHORIZED");
    expect(readQuota(response)).toBeNull();
  });

  it("retries a metered request answered 503 (its units were given back), and never one lost on the network", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const saved = process.env.SERVICE_DNS_SERVERS;
    process.env.SERVICE_DNS_SERVERS = "127.0.0.1:9";
    const waits: number[] = [];
    try {
      seen.length = 0;
      const api = createServiceClient({ baseUrl, apiKey: ws.apiKey, sleep: async (ms) => void waits.push(ms) });
      const { error, response } = await api.GET("/dns/lookup", {
        params: { query: { domain: "example.com", type: "A" } },
      });
      expect(response.status).toBe(503);
      expect(error?.error.code).toBe("UPSTREAM_UNAVAILABLE");
      expect(response.headers.get("retry-after")).toBe("10");
      expect(seen).toHaveLength(3);
      expect(waits).toEqual([10_000, 10_000]);
      // Three admitted attempts, none answered: each gave its unit back.
      expect(await app.used(ws.workspaceId)).toBe(0);
      const ledger = await app.db.usageLedger.findMany({ where: { workspaceId: ws.workspaceId } });
      expect(ledger.map((l) => l.units).sort()).toEqual([-1, -1, -1, 1, 1, 1]);
    } finally {
      process.env.SERVICE_DNS_SERVERS = saved;
    }

    // A metered request whose connection failed may have been admitted and answered: retried only when asked.
    const failing = async () => {
      throw new TypeError("fetch failed");
    };
    let sent = 0;
    const counting = (async () => (sent++, failing())) as unknown as typeof fetch;
    const strict = createServiceClient({ baseUrl, apiKey: ws.apiKey, fetch: counting, sleep: async () => {} });
    await expect(strict.GET("/ip/{ip}/geo", { params: { path: { ip: "8.8.8.8" } } })).rejects.toThrow("fetch failed");
    expect(sent).toBe(1);
    sent = 0;
    const optedIn = createServiceClient({
      baseUrl,
      apiKey: ws.apiKey,
      fetch: counting,
      retryMeteredRequests: true,
      sleep: async () => {},
    });
    await expect(optedIn.GET("/ip/{ip}/geo", { params: { path: { ip: "8.8.8.8" } } })).rejects.toThrow("fetch failed");
    expect(sent).toBe(3);
  });

  it("retries a 429 after the Retry-After the server sent, then succeeds", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    process.env.SERVICE_LINKS_KEY_RATE_LIMIT = "1";
    // A window wide enough that the two requests never straddle its end, even on a loaded machine.
    process.env.SERVICE_LINKS_RATE_WINDOW_SECONDS = "4";
    const waits: number[] = [];
    try {
      const api = createServiceClient({
        baseUrl,
        apiKey: ws.apiKey,
        sleep: (ms) => (waits.push(ms), new Promise((r) => setTimeout(r, ms))),
      });
      // Start just after a window begins, so both requests fall in one window on any machine.
      await new Promise((r) => setTimeout(r, 4000 - (Date.now() % 4000) + 50));
      const first = await api.POST("/go/links", { body: { url: "https://example.com/a" } });
      expect(first.response.status).toBe(200);
      seen.length = 0;
      const second = await api.POST("/go/links", { body: { url: "https://example.com/b" } });
      expect(second.response.status).toBe(200);
      expect(seen.length).toBeGreaterThanOrEqual(2);
      // The client waited what the server's Retry-After said: the rest of the window, in whole seconds.
      expect(waits[0]).toBeGreaterThanOrEqual(1000);
      expect(waits[0]).toBeLessThanOrEqual(4000);
      expect(waits[0]! % 1000).toBe(0);
      expect(await app.used(ws.workspaceId)).toBe(0);
    } finally {
      process.env.SERVICE_LINKS_KEY_RATE_LIMIT = "1000";
      delete process.env.SERVICE_LINKS_RATE_WINDOW_SECONDS;
    }
  });
});

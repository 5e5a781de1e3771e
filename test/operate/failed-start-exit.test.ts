// A start-up that fails stops the production server (exit 1), as an invalid setting does
// (test/operate/invalid-setting-exit.test.ts). An embedded database whose files are damaged used to leave the process
// up: /healthz 200 (so no orchestrator restarted it), /readyz 503 "start-up failed: PGlite failed to initialize
// properly", every page 500, and nothing saying which folder or what to do. It now exits 1 with one line naming the
// folder and the way out (restore a backup, or move the folder). Any other failed start does the same.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOnce, exitOrStop, startServerProcess, waitUntilReady, type RunningServer } from "./server-process";

const url =
  process.env.DATABASE_URL ?? process.env.SERVICE_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const schema = `failedstart_${process.pid}_${randomBytes(3).toString("hex")}`;
const dirs: string[] = [];
beforeAll(() => buildOnce(), 600_000);
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
});

async function sql(text: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-failed-start-"));
  dirs.push(dir);
  return dir;
}

/** The exit code (or "still running" after 90 s, when it is stopped), and whether its port ever answered. */
async function exitOf(server: RunningServer): Promise<{ code: number | null | string; open: boolean }> {
  let open = false;
  const watching = (async () => {
    while (server.child.exitCode === null) {
      open ||= await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
        () => true,
        () => false,
      );
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  const code = await exitOrStop(server);
  await watching;
  return { code, open };
}

/** The JSON records among the process's output. */
function records(output: string): { level: number; msg: string }[] {
  return output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
}

// A stack frame as Node prints one ("    at fn (file:line:col)").
const STACK_FRAME = /^\s+at .+/m;

describe("npm start on an embedded database whose files are damaged", () => {
  it("exits 1 with one line naming the folder and what to do, without opening the port", async () => {
    const dir = folder();
    const store = path.join(dir, "pglite");
    const pg = await PGlite.create(store);
    await pg.exec("CREATE TABLE kept (id int)");
    await pg.close();
    // Garbage over the control file, as a disk fault or a half-finished copy leaves it.
    writeFileSync(path.join(store, "global", "pg_control"), Buffer.alloc(8192, 0x5a));
    const server = await startServerProcess({ SERVICE_DATA_DIR: dir, DATABASE_URL: "", SERVICE_SCHEDULER: "0" });
    expect(await exitOf(server)).toEqual({ code: 1, open: false });
    const failures = records(server.output()).filter((r) => r.level >= 50);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.msg).toContain(`the embedded database in ${store} cannot be opened`);
    expect(failures[0]!.msg).toContain(`Restore a backup into the data folder ${dir}`);
    expect(failures[0]!.msg).toContain(`or move ${store} out of it`);
    expect(server.output()).not.toContain("Failed to prepare server");
    expect(server.output()).not.toMatch(STACK_FRAME);
    // Nothing was written over the damaged files, and the folder's lock went with the process.
    expect(readdirSync(dir).sort()).toEqual(["pglite"]);
  }, 150_000);
});

describe("npm start with a database setting waiting cannot mend", () => {
  it("exits 1 saying why, instead of staying up with /readyz 503 'start-up failed'", async () => {
    // A host name that does not resolve (.invalid never does): start-up fails at once, without waiting.
    const server = await startServerProcess({
      DATABASE_URL: "postgresql://postgres@no-such-host.invalid:5432/service",
      SERVICE_DATA_DIR: folder(),
      SERVICE_SCHEDULER: "0",
    });
    expect((await exitOf(server)).code).toBe(1);
    const failures = records(server.output()).filter((r) => r.level >= 50);
    expect(failures.map((r) => r.msg)).toEqual([
      expect.stringMatching(/^start-up failed while opening the database and applying migrations: .*ENOTFOUND/),
    ]);
    expect(server.output()).not.toMatch(STACK_FRAME);
  }, 150_000);
});

describe("npm start's first run on a data folder where the demo key cannot be written", () => {
  it("exits 1 saying what to do and creates no workspace; with a writable folder the next start seeds it", async () => {
    // The key's file was written after the workspace was committed: the workspace stayed, its key shown to no one,
    // and every later start, finding a workspace, seeded nothing. A folder under a file cannot be written by anyone.
    const blocker = path.join(folder(), "a-file");
    writeFileSync(blocker, "");
    const env = { DATABASE_URL: url, SERVICE_DB_SCHEMA: schema, SERVICE_SEED_DEMO: "1", SERVICE_SCHEDULER: "0" };
    const refused = await startServerProcess({ ...env, SERVICE_DATA_DIR: path.join(blocker, "data") });
    expect((await exitOf(refused)).code).toBe(1);
    const failures = records(refused.output()).filter((r) => r.level >= 50);
    expect(failures.map((r) => r.msg)).toEqual([
      expect.stringContaining(
        `the demo workspace's API key cannot be written to ${path.join(blocker, "data", "demo-credentials.txt")} ` +
          "(ENOTDIR), so no demo workspace was created",
      ),
    ]);
    expect(await sql(`SELECT count(*)::int AS n FROM "${schema}"."Workspace"`)).toEqual([{ n: 0 }]);

    const dir = folder();
    const server = await startServerProcess({ ...env, SERVICE_DATA_DIR: dir, SERVICE_SHUTDOWN_DELAY_MS: "0" });
    try {
      await waitUntilReady(server.base);
      const key = /API key:\s+(\S+)/.exec(readFileSync(path.join(dir, "demo-credentials.txt"), "utf8"))![1];
      expect((await fetch(`${server.base}/v1/jobs`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  }, 300_000);
});

// One embedded database folder serves one server. The "folder already held" check used to look only for a running
// server's admin channel, which opens after migrations and the shipped data: two servers started at the same moment
// on one folder both opened it. A server now takes the folder's lock file (created exclusively, holding its pid)
// before it opens the database; a lock whose process has gone (a crash, a restored backup) is taken over.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { lockEmbeddedStore, releaseEmbeddedStore } from "../../server/admin/channel";
import { buildOnce, startServerProcess, waitUntilReady, type RunningServer } from "./server-process";

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  delete process.env.SERVICE_DATA_DIR;
});

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-store-lock-"));
  dirs.push(dir);
  process.env.SERVICE_DATA_DIR = dir;
  return dir;
}

/** A process whose command line names the server's script, standing in for a running server. */
function serverLike(): ChildProcess {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "scripts/server.mjs"], {
    stdio: "ignore",
  });
  children.push(child);
  return child;
}

describe("the embedded folder's lock", () => {
  it("is taken by the first, refused to a second while the first runs, and given back", () => {
    const dir = folder();
    expect(lockEmbeddedStore()).toBeNull();
    expect(readFileSync(path.join(dir, "server.lock"), "utf8")).toBe(String(process.pid));
    // The same process again (a start-up retried in one process) keeps it.
    expect(lockEmbeddedStore()).toBeNull();
    const other = serverLike();
    releaseEmbeddedStore();
    expect(existsSync(path.join(dir, "server.lock"))).toBe(false);
    writeFileSync(path.join(dir, "server.lock"), String(other.pid));
    expect(lockEmbeddedStore()).toBe(other.pid);
    expect(readFileSync(path.join(dir, "server.lock"), "utf8")).toBe(String(other.pid));
  });

  it("is taken over from a process that has gone, or from one that is no server", async () => {
    const dir = folder();
    const gone = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await new Promise((r) => gone.on("exit", r));
    writeFileSync(path.join(dir, "server.lock"), String(gone.pid));
    expect(lockEmbeddedStore()).toBeNull();
    expect(readFileSync(path.join(dir, "server.lock"), "utf8")).toBe(String(process.pid));
    releaseEmbeddedStore();

    const unrelated = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    children.push(unrelated);
    writeFileSync(path.join(dir, "server.lock"), String(unrelated.pid));
    expect(lockEmbeddedStore()).toBeNull();
    releaseEmbeddedStore();

    writeFileSync(path.join(dir, "server.lock"), "not a pid");
    expect(lockEmbeddedStore()).toBeNull();
    releaseEmbeddedStore();
  });
});

describe("two servers started at the same moment on one embedded folder", () => {
  beforeAll(() => buildOnce(), 600_000);

  it("one serves, the other exits 1 saying the folder is in use", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "svc-store-race-"));
    dirs.push(dir);
    const env = { SERVICE_DATA_DIR: dir, DATABASE_URL: "", SERVICE_SHUTDOWN_DELAY_MS: "0", SERVICE_SCHEDULER: "0" };
    const servers: RunningServer[] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    try {
      const first = await Promise.race([
        ...servers.map((s, i) => s.exited.then((code) => ({ i, code }))),
        new Promise<{ i: number; code: string }>((r) =>
          setTimeout(() => r({ i: 0, code: "both still running" }), 150_000),
        ),
      ]);
      expect(first.code).toBe(1);
      const loser = servers[first.i]!;
      const winner = servers[1 - first.i]!;
      expect(loser.output()).toContain(`SERVICE_DATA_DIR=${dir} is in use by another running server`);
      await waitUntilReady(winner.base);
      expect((await fetch(`${winner.base}/readyz`)).status).toBe(200);
      expect(readFileSync(path.join(dir, "server.lock"), "utf8")).toBe(
        readFileSync(path.join(dir, "server.pid"), "utf8"),
      );
    } finally {
      for (const s of servers) if (s.child.exitCode === null) s.child.kill("SIGTERM");
      await Promise.all(servers.map((s) => s.exited));
    }
    // The lock goes with the server that held it.
    expect(existsSync(path.join(dir, "server.lock"))).toBe(false);
  }, 300_000);

  it("a second server refused on a running server's folder leaves server.pid naming the running one", async () => {
    // start.mjs writes its server's pid to server.pid at once, for the admin CLI to wait on: the refused second
    // server's start.mjs wrote its own over the running server's, and left it, naming a process that had gone.
    const dir = mkdtempSync(path.join(tmpdir(), "svc-store-second-"));
    dirs.push(dir);
    const env = { SERVICE_DATA_DIR: dir, DATABASE_URL: "", SERVICE_SHUTDOWN_DELAY_MS: "0", SERVICE_SCHEDULER: "0" };
    const first = await startServerProcess(env);
    try {
      await waitUntilReady(first.base);
      const running = readFileSync(path.join(dir, "server.lock"), "utf8");
      const second = await startServerProcess(env);
      expect(await second.exited).toBe(1);
      expect(readFileSync(path.join(dir, "server.pid"), "utf8")).toBe(running);
    } finally {
      first.child.kill("SIGTERM");
      await first.exited;
    }
  }, 300_000);
});

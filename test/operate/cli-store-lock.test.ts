// `npm run db:migrate` and `npm run admin` (with no server running) open the embedded database themselves. They took
// no lock, so a server started while they ran found neither a lock holder nor an admin channel and opened the same
// files. They now hold the folder's lock (server/admin/channel.ts) for as long as they hold the database, and a
// server's start-up check (the same lockEmbeddedStore, server/startup/index.ts) is refused meanwhile.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { holderKind, lockEmbeddedStore, releaseEmbeddedStore } from "../../server/admin/channel";
import { buildOnce, startServerProcess } from "./server-process";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
afterEach(() => {
  releaseEmbeddedStore();
  delete process.env.SERVICE_DATA_DIR;
});

function lockPid(dir: string): number | null {
  try {
    return Number(readFileSync(path.join(dir, "server.lock"), "utf8"));
  } catch {
    return null;
  }
}

/**
 * Runs one CLI as its package script does (one process with tsx's loader) on a new folder; while it runs, tries the
 * lock as a starting server would, once the CLI has opened the database folder.
 */
async function whileCommandRuns(script: string, args: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-cli-lock-"));
  dirs.push(dir);
  const env: Record<string, string | undefined> = { ...process.env, SERVICE_DATA_DIR: dir };
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  delete env.SERVICE_DB_TEMPLATE_DIR;
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (out += c));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  let running = true;
  void exited.then(() => (running = false));
  // The state waited for: the database folder exists (the command is opening it), or the command has ended.
  while (running && !existsSync(path.join(dir, "pglite"))) await new Promise((r) => setTimeout(r, 10));
  const seen = { running, lock: lockPid(dir) };
  process.env.SERVICE_DATA_DIR = dir;
  const serverGot = running ? lockEmbeddedStore() : "command had ended";
  if (serverGot === null) releaseEmbeddedStore();
  const code = await exited;
  return { child, dir, seen, serverGot, code, out, lockAfter: existsSync(path.join(dir, "server.lock")) };
}

describe("admin commands on the embedded database with no server running", () => {
  it("npm run db:migrate holds the folder's lock while it runs, so a starting server is refused, and gives it back", async () => {
    const r = await whileCommandRuns("server/admin/migrate-cli.ts", []);
    expect(r.seen).toEqual({ running: true, lock: r.child.pid });
    expect(r.serverGot).toBe(r.child.pid);
    expect({ code: r.code, lockAfter: r.lockAfter }).toEqual({ code: 0, lockAfter: false });
    expect(r.out).toMatch(/^Applied \d+ migrations:/);
  }, 240_000);

  it("npm run admin holds it too", async () => {
    const r = await whileCommandRuns("server/admin/cli.ts", ["feeds", "status", "--json"]);
    expect(r.seen).toEqual({ running: true, lock: r.child.pid });
    expect(r.serverGot).toBe(r.child.pid);
    expect({ code: r.code, lockAfter: r.lockAfter }).toEqual({ code: 0, lockAfter: false });
  }, 240_000);

  it("a lock held by an admin command is told from a server's", () => {
    const self = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "server/admin/cli.ts"], {
      stdio: "ignore",
    });
    try {
      expect(holderKind(self.pid!)).toBe("command");
    } finally {
      self.kill("SIGKILL");
    }
  });
});

describe("a server started while an admin command holds the folder", () => {
  beforeAll(() => buildOnce(), 600_000);

  it("exits 1 saying an admin command is using the folder, and leaves its lock alone", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "svc-cli-lock-server-"));
    dirs.push(dir);
    // A process whose command line names the admin CLI, holding the lock, stands in for a running command.
    const command = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "server/admin/cli.ts"], {
      stdio: "ignore",
    });
    try {
      writeFileSync(path.join(dir, "server.lock"), String(command.pid));
      const server = await startServerProcess({ SERVICE_DATA_DIR: dir, DATABASE_URL: "", SERVICE_SCHEDULER: "0" });
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain(
        `SERVICE_DATA_DIR=${dir} is in use by an admin command (process ${command.pid}`,
      );
      expect(existsSync(path.join(dir, "pglite"))).toBe(false);
      expect(readFileSync(path.join(dir, "server.lock"), "utf8")).toBe(String(command.pid));
    } finally {
      command.kill("SIGKILL");
    }
  }, 300_000);
});

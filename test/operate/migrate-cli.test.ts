// `npm run db:migrate` says what it did: on a fresh embedded database it names each migration it applied (it used to
// say "migrations are up to date" after applying all of them), and run again it says there was none to apply.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-migrate-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function migrate(dir = dataDir): Promise<string> {
  const env: Record<string, string | undefined> = { ...process.env, SERVICE_DATA_DIR: dir };
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  // Without the tests' kept template (server/db/template.ts), a new database is migrated as a newcomer's is.
  delete env.SERVICE_DB_TEMPLATE_DIR;
  // One process with tsx's loader, as the package script runs it.
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "server/admin/migrate-cli.ts"], {
    env: env as NodeJS.ProcessEnv,
    timeout: 120_000,
  });
  return stdout.trim();
}

describe("npm run db:migrate", () => {
  it("names the migrations it applied, then says none was left to apply", async () => {
    const shipped = readdirSync("prisma/migrations", { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const first = (await migrate()).split("\n");
    expect(first[0]).toBe(`Applied ${shipped.length} migrations:`);
    expect(first.slice(1).map((l) => l.trim())).toEqual(shipped);
    expect(await migrate()).toBe("Migrations are up to date: none to apply.");
  }, 240_000);
});

describe("npm run db:migrate -- <arguments>", () => {
  it("prints its usage for --help and refuses any other argument, opening no database either way", async () => {
    // `npm run db:migrate -- --help` created the database and applied every migration to it (so did `-- --bogus`);
    // README's Operate section says a command refuses what it does not take before anything runs.
    const dir = mkdtempSync(path.join(tmpdir(), "svc-migrate-args-"));
    const run = (args: string[]) => {
      const env: Record<string, string | undefined> = { ...process.env, SERVICE_DATA_DIR: dir };
      delete env.DATABASE_URL;
      delete env.NODE_ENV;
      delete env.SERVICE_DB_TEMPLATE_DIR;
      return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          ["--import", "tsx", "server/admin/migrate-cli.ts", ...args],
          { env: env as NodeJS.ProcessEnv, timeout: 120_000 },
          (err, stdout, stderr) =>
            resolve({
              code: err ? ((err as { code?: number }).code ?? 1) : 0,
              stdout: stdout.trim(),
              stderr: stderr.trim(),
            }),
        );
      });
    };
    try {
      for (const help of [["--help"], ["-h"]]) {
        const r = await run(help);
        expect({ help, code: r.code, stderr: r.stderr }).toEqual({ help, code: 0, stderr: "" });
        expect(r.stdout).toMatch(/^usage: npm run db:migrate\b/);
      }
      const bogus = await run(["--bogus", "now"]);
      expect({ code: bogus.code, stdout: bogus.stdout }).toEqual({ code: 1, stdout: "" });
      expect(bogus.stderr).toMatch(
        /^error: db:migrate takes no arguments \(got "--bogus", "now"\)\nusage: npm run db:migrate/,
      );
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

describe("npm run db:migrate while a server is starting on the folder", () => {
  it("waits for that server instead of opening the folder a second time", async () => {
    // It looked only for the server's admin channel, which opens after the server's migrations and shipped data, so
    // during that start-up it opened the embedded database beside the server. A server takes the folder's lock before
    // it opens the database (server/admin/channel.ts); a process whose command line names the server's script and
    // holds the lock stands in for one that is starting.
    const dir = mkdtempSync(path.join(tmpdir(), "svc-migrate-held-"));
    const holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "scripts/server.mjs"], {
      stdio: "ignore",
    });
    try {
      writeFileSync(path.join(dir, "server.lock"), String(holder.pid));
      // The state waited for, not a time (a fixed 8 s passed without testing anything when tsx took longer to start):
      // the command has tried the server's channel twice, so it is in its wait, not before it.
      const env: Record<string, string | undefined> = { ...process.env, SERVICE_DATA_DIR: dir };
      delete env.DATABASE_URL;
      delete env.NODE_ENV;
      delete env.SERVICE_DB_TEMPLATE_DIR;
      const cli = spawn(
        process.execPath,
        ["--require", path.join(__dirname, "connect-marker.cjs"), "--import", "tsx", "server/admin/migrate-cli.ts"],
        { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] },
      );
      let out = "";
      let err = "";
      cli.stdout.on("data", (c) => (out += c));
      cli.stderr.on("data", (c) => (err += c));
      let done = false;
      const exited = new Promise<number | null>((r) => cli.on("exit", (code) => r(code))).finally(() => (done = true));
      const attempts = () => err.split("\n").filter((l) => l.startsWith("connect ") && l.endsWith("admin.sock")).length;
      while (!done && attempts() < 2) await new Promise((r) => setTimeout(r, 50));
      expect({ done, opened: existsSync(path.join(dir, "pglite")) }).toEqual({ done: false, opened: false });
      // The server went away without opening its channel: the command goes on alone.
      holder.kill("SIGKILL");
      expect(await exited).toBe(0);
      expect(out.split("\n")[0]).toMatch(/^Applied \d+ migrations:$/);
    } finally {
      holder.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

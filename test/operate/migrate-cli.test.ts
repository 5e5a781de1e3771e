// `npm run db:migrate` says what it did: on a fresh embedded database it names each migration it applied (it used to
// say "migrations are up to date" after applying all of them), and run again it says there was none to apply.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-migrate-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function migrate(): Promise<string> {
  const env: Record<string, string | undefined> = { ...process.env, SERVICE_DATA_DIR: dataDir };
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

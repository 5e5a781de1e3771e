// Tests that run the app in several processes against one PostgreSQL (DATABASE_URL, or the local PostgreSQL the
// development and CI machines provide), in a schema of their own that is dropped afterwards: spawn a script as an app
// process bound to that schema, and open a client on it from the test. The schema is migrated before the first test
// (the app's own migrations, as a process would run them at start), so no process is started only to migrate it.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { PrismaClient } from "../../server/db/generated/client";
import { applyMigrations } from "../../server/db/migrate";

export function useProcessSchema(prefix: string) {
  const url =
    process.env.DATABASE_URL ?? process.env.SERVICE_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
  const schema = `${prefix}_${process.pid}_${randomBytes(3).toString("hex")}`;
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // server/db/migrate.ts over a connection of its own whose search path is the schema (as the app's pool has it).
    const migrator = new pg.Client({ connectionString: url, options: `-c search_path="${schema}"` });
    await migrator.connect();
    try {
      await migrator.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await applyMigrations({
        exec: async (sql) => {
          try {
            await migrator.query(sql);
          } catch (err) {
            await migrator.query("ROLLBACK").catch(() => undefined);
            throw err;
          }
        },
        query: async (sql, params = []) => (await migrator.query(sql, params)).rows,
        withLock: (fn) => fn(),
      });
    } finally {
      await migrator.end();
    }
  });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  /** Runs `script` (TypeScript, through tsx) as an app process on the schema; resolves to its standard output. */
  function runProcess(script: string, args: string[], env: Record<string, string> = {}): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
        env: { ...process.env, DATABASE_URL: url, SERVICE_DB_SCHEMA: schema, NODE_ENV: "test", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (err += d));
      child.on("exit", (code) => {
        if (code !== 0) return reject(new Error(`worker exited ${code}: ${err.slice(-2000)}`));
        resolve(out);
      });
    });
  }

  /** A client of the test process on the same schema. */
  async function client(): Promise<PrismaClient> {
    const { PrismaPg } = await import("@prisma/adapter-pg");
    return new PrismaClient({
      adapter: new PrismaPg({ connectionString: url, options: `-c search_path="${schema}"` } as never, { schema }),
    });
  }

  return { url, schema, runProcess, client };
}

// Tests that run the app in several processes against one PostgreSQL (DATABASE_URL, or the local PostgreSQL the
// development and CI machines provide), in a schema of their own that is dropped afterwards: spawn a script as an app
// process bound to that schema, and open a client on it from the test.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { PrismaClient } from "../../server/db/generated/client";

export function useProcessSchema(prefix: string) {
  const url =
    process.env.DATABASE_URL ?? process.env.SERVICE_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
  const schema = `${prefix}_${process.pid}_${randomBytes(3).toString("hex")}`;
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
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

  /** A client of the test process on the same schema (once a process has migrated it). */
  async function client(): Promise<PrismaClient> {
    const { PrismaPg } = await import("@prisma/adapter-pg");
    return new PrismaClient({
      adapter: new PrismaPg({ connectionString: url, options: `-c search_path="${schema}"` } as never, { schema }),
    });
  }

  return { url, schema, runProcess, client };
}

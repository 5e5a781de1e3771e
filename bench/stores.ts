// The databases the service is measured on: embedded PGlite in a fresh temporary data folder, and PostgreSQL in
// a fresh schema. Each store yields the environment for the server and the admin CLI, and cleans up after itself.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export interface OpenStore {
  name: string;
  /** What the results should say about the store (folder, server version, schema). */
  detail: string;
  /** Variables for the server and the admin CLI; undefined removes a variable inherited from the caller. */
  env: Record<string, string | undefined>;
  cleanup(): Promise<void>;
}

export type StoreOutcome = { ok: true; store: OpenStore } | { ok: false; name: string; reason: string };

async function openPglite(): Promise<StoreOutcome> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-bench-"));
  return {
    ok: true,
    store: {
      name: "pglite",
      detail: `embedded PGlite in ${dir}`,
      env: { SERVICE_DATA_DIR: dir, DATABASE_URL: undefined, SERVICE_DB_SCHEMA: undefined },
      cleanup: () => rm(dir, { recursive: true, force: true }),
    },
  };
}

function withoutSchemaParam(url: string): string {
  const u = new URL(url);
  u.searchParams.delete("schema");
  return u.toString();
}

async function openPostgres(databaseUrl: string): Promise<StoreOutcome> {
  const base = withoutSchemaParam(databaseUrl);
  const schema = `bench_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const client = new pg.Client({ connectionString: base });
  let version: string;
  try {
    await client.connect();
    version = String((await client.query("SHOW server_version")).rows[0].server_version);
  } catch (err) {
    return {
      ok: false,
      name: "postgresql",
      reason: `cannot connect to PostgreSQL (${(err as Error).message}); set BENCH_DATABASE_URL`,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
  const url = new URL(base);
  url.searchParams.set("schema", schema);
  const safeUrl = new URL(base);
  safeUrl.password = "";
  return {
    ok: true,
    store: {
      name: "postgresql",
      detail: `PostgreSQL ${version} at ${safeUrl.host}${safeUrl.pathname}, schema ${schema}`,
      env: { DATABASE_URL: url.toString(), SERVICE_DB_SCHEMA: schema },
      cleanup: async () => {
        const c = new pg.Client({ connectionString: base });
        await c.connect();
        try {
          await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        } finally {
          await c.end();
        }
      },
    },
  };
}

export function openStore(name: string, databaseUrl: string): Promise<StoreOutcome> {
  if (name === "pglite") return openPglite();
  if (name === "postgresql") return openPostgres(databaseUrl);
  return Promise.resolve({ ok: false, name, reason: `unknown store (known: pglite, postgresql)` });
}

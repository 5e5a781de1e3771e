// The database of each test file, seen from test/setup-env.ts: server/db/client.ts keeps its handle in
// globalThis.__serviceDb, and this watches that slot.
// - Which files opened a database (CI's record for its PostgreSQL pass, .ci/store-tests.mjs): see recordOpens.
// - A worker's embedded in-memory database is kept from one file to the next, emptied, instead of a new one per file:
//   a new PGlite costs about 0.7 s of CPU (its start and the template's load), a file's database most of the time of
//   a small file. The next file finds no row of the previous one: every table is truncated and its statistics
//   forgotten, as in a database just made from the template. A database is kept only when it still has exactly the
//   template's schema (a file that made a table, a function or a trigger, prepared a statement in SQL or left a
//   transaction open closes it as before), only between files of a shared worker (the same modules), and it is
//   handed on only to a file that asks for the same embedded in-memory database with the same template; any other
//   file gets its own as before.
import { appendFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect } from "vitest";

interface Handle {
  kind: string;
  migrated: string[];
  embedded?: { pg: Pglite; dir: string };
  close(): Promise<void>;
}
export interface Pglite {
  closed: boolean;
  isInTransaction(): boolean;
  query<T>(sql: string): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
}

const g = globalThis as {
  __serviceDb?: Promise<Handle>;
  __testFileDatabase?: { kept?: Promise<Handle>; keptFor?: string; schema?: string };
};
const state = (g.__testFileDatabase ??= {});

let opened = false;
let slot: Promise<Handle> | undefined;

/** The settings that decide which database getDb() opens: a kept one serves only the same. */
function wanted(): string | null {
  if (process.env.DATABASE_URL || process.env.SERVICE_DATA_DIR !== "memory://") return null;
  return `memory:// ${process.env.SERVICE_DB_TEMPLATE_DIR ?? ""}`;
}

/** The template's schema, read from the worker's first new database before anything else runs on it. */
function learnSchema(value: Promise<Handle>): void {
  if (state.schema !== undefined) return;
  value
    .then(async (h) => {
      if (h.kind !== "pglite" || h.embedded?.dir !== "memory://" || h.migrated.length || state.schema !== undefined)
        return;
      state.schema = await schemaObjects(h.embedded.pg);
    })
    .catch(() => undefined);
}

/**
 * Watches the handle's slot for this file: records an open, and, when `keep` is set, hands a kept database to the
 * file's first use when it wants the same one (otherwise the kept one is closed).
 */
export function watchFileDatabase(keep: boolean): void {
  // The slot carries over from the previous file of the worker (normally empty: it closed its database); a handle
  // set before any file was watched is a plain property.
  const before = Object.getOwnPropertyDescriptor(g, "__serviceDb");
  if (before && "value" in before) slot = before.value as Promise<Handle> | undefined;
  opened = false;
  Object.defineProperty(g, "__serviceDb", {
    configurable: true,
    enumerable: true,
    get: () => {
      if (slot === undefined && state.kept) {
        const kept = state.kept;
        const keptFor = state.keptFor;
        state.kept = undefined;
        if (keep && keptFor !== undefined && keptFor === wanted()) {
          slot = kept;
          opened = true;
        } else void kept.then((h) => h.close()).catch(() => undefined);
      }
      return slot;
    },
    set: (value: Promise<Handle> | undefined) => {
      if (value) {
        opened = true;
        if (keep) learnSchema(value);
      }
      slot = value;
    },
  });
}

/** Whether this file has a database open now (without taking a kept one). */
export function databaseOpen(): boolean {
  return slot !== undefined;
}

/** CI's first run: appends this file's path to `record` when it ends, if it opened a database. */
export function recordOpens(record: string): void {
  afterAll(() => {
    const file = expect.getState().testPath;
    if (opened && file) appendFileSync(record, `${path.relative(process.cwd(), file).split(path.sep).join("/")}\n`);
  });
}

const SCHEMA_OBJECTS = `
  SELECT string_agg(o, ',' ORDER BY o) AS objects FROM (
    SELECT 'r:' || n.nspname || '.' || c.relname || ':' || c.relkind::text || ':' || c.relpersistence::text AS o
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
    UNION ALL
    SELECT 'f:' || n.nspname || '.' || p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
    UNION ALL
    SELECT 't:' || tgname FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL
    SELECT 'e:' || extname FROM pg_extension
    UNION ALL
    SELECT 'p:' || name FROM pg_prepared_statements WHERE from_sql
    UNION ALL
    SELECT 'm:' || count(*)::text FROM "_prisma_migrations"
  ) objects`;

/** What a database holds besides rows (relations, functions, triggers, extensions, migrations, SQL statements). */
export async function schemaObjects(pg: Pglite): Promise<string> {
  return (await pg.query<{ objects: string }>(SCHEMA_OBJECTS)).rows[0]!.objects;
}

/**
 * Empties `pg` back to the template's state (`schema`, its schemaObjects); false, and nothing changed, when it has
 * not that schema any more or a transaction is open (then it is not kept).
 */
export async function emptied(pg: Pglite, schema: string | undefined): Promise<boolean> {
  if (pg.closed || pg.isInTransaction()) return false;
  if (schema === undefined || (await schemaObjects(pg)) !== schema) return false;
  const tables = (
    await pg.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables
        WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
    )
  ).rows.map((r) => r.name);
  await pg.exec(
    `TRUNCATE ${tables.join(", ")} RESTART IDENTITY CASCADE;
     DELETE FROM pg_statistic WHERE starelid IN (
       SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public');`,
  );
  return true;
}

/**
 * Called at the file's end, before closeDb(): when the file's database can serve the next file, its close (which
 * closeDb calls after writing what modules still queue) empties it and keeps it instead.
 */
export async function keepForNextFile(): Promise<void> {
  const current = slot;
  const keptFor = wanted();
  if (!current || keptFor === null) return;
  const handle = await current.catch(() => null);
  // The template's database only: one that ran its migrations at open (no template yet) says so to start-up.
  if (!handle || handle.kind !== "pglite" || handle.embedded?.dir !== "memory://" || handle.migrated.length) return;
  const close = handle.close;
  handle.close = async () => {
    handle.close = close;
    let keep = false;
    try {
      keep = await emptied(handle.embedded!.pg, state.schema);
    } catch {
      keep = false;
    }
    if (!keep) return close();
    state.kept = Promise.resolve(handle);
    state.keptFor = keptFor;
  };
}

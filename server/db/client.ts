// The Prisma client for the whole process: embedded PGlite by default, PostgreSQL when DATABASE_URL is set.
// Migrations are applied before the client is handed out, so every caller sees the current schema.
import { rmSync } from "node:fs";
import path from "node:path";
import { PrismaClient } from "./generated/client";
import { dataDir, databaseSchema, databaseUrl, hotCommitsAsync, inMemory, poolSizes } from "./config";
import { applyMigrations, type SqlRunner } from "./migrate";
import { embeddedOpenFailure } from "./open-failure";
import { markConnectFailures } from "./outage-reason";
import { guardPgliteClose } from "./pglite-close";
import { pgNamedDriver } from "./pg-named";
import { pgliteNamedDriver, type NamedDriver } from "./pglite-named";
import { isNewDatabase, readTemplate, writeTemplate } from "./template";
import { makeFolders } from "./make-folders.mjs";

export type Db = PrismaClient;

type Handle = {
  prisma: PrismaClient;
  runner: SqlRunner;
  close(): Promise<void>;
  kind: "pglite" | "postgresql";
  /** The migrations this process applied when it opened the database (start-up logs them). */
  migrated: string[];
  /** The embedded database and its folder (server/maintenance/backup.ts copies it). */
  embedded?: { pg: import("@electric-sql/pglite").PGlite; dir: string };
};

const globalForDb = globalThis as unknown as {
  __serviceDb?: Promise<Handle>;
  __serviceDbPool?: () => { inUse: number; waiting: number; total: number };
  __serviceDbPoolError?: (err: unknown) => void;
  __serviceDbDrivers?: WeakMap<object, NamedDriver>;
  __serviceDbPooled?: WeakMap<object, number>;
};

/** Where a failed pool connection that is no outage is reported (start-up hands in the log). */
export function reportDbPoolErrorsTo(report: (err: unknown) => void): void {
  globalForDb.__serviceDbPoolError = report;
}

/** The PostgreSQL pool's connections in use, waiting and open; null on the embedded store or before it opens. */
export function dbPoolReading(): { inUse: number; waiting: number; total: number } | null {
  return globalForDb.__serviceDbPool?.() ?? null;
}

async function open(): Promise<Handle> {
  const url = databaseUrl();
  if (url) {
    const [{ Pool, Query }, { PrismaPg }] = await Promise.all([import("pg"), import("@prisma/adapter-pg")]);
    const schema = databaseSchema();
    const { connectionString, options } = splitConnectionString(url);
    // search_path as a connection option, so unqualified migration SQL and raw queries land in this schema.
    const mainOptions = [options, schema !== "public" ? `-c search_path="${schema}"` : ""].join(" ").trim();
    const sizes = poolSizes();
    const pool = new Pool({ connectionString, max: sizes.main, ...(mainOptions ? { options: mainOptions } : {}) });
    // The hot statements have connections of their own, on which PostgreSQL keeps one generic plan per statement
    // (plan_cache_mode): see HOT_PLANS below. Prisma's statements keep the default on the other pool.
    const hotPool = new Pool({
      connectionString,
      max: sizes.hot,
      options: `${mainOptions} ${HOT_PLANS} ${hotCommitsAsync() ? HOT_ASYNC_COMMIT : ""}`.trim(),
    });
    const pools = [pool, hotPool];
    // An idle connection the server drops (restart, failover, terminated backend) is an outage to report, not an
    // uncaught error that ends the process; the pool replaces the connection on the next query. The report (an
    // outage noted once per interval, else an error line) is handed in by start-up (server/startup/sources.ts), so
    // that db/ imports nothing above it.
    for (const p of pools) p.on("error", (err) => (globalForDb.__serviceDbPoolError ?? console.error)(err));
    // Whatever fails while a connection is being opened is an outage, whatever its code (issue 42: a database that
    // disallows connections answers SQLSTATE 55000, which no list named): marked here, where it happened.
    for (const p of pools) markConnectFailures(p);
    // Read at scrape time by /metrics (pools in use and waiting), through dbPoolReading (server/startup/sources.ts).
    globalForDb.__serviceDbPool = () =>
      pools.reduce(
        (n, p) => ({
          inUse: n.inUse + p.totalCount - p.idleCount,
          waiting: n.waiting + p.waitingCount,
          total: n.total + p.totalCount,
        }),
        { inUse: 0, waiting: 0, total: 0 },
      );
    // While the migrations' lock is held, their statements run on the connection that holds it: with one connection
    // in the pool, asking for another would wait for ever.
    let locked: import("pg").PoolClient | null = null;
    const onConnection = async <T>(fn: (c: import("pg").PoolClient) => Promise<T>): Promise<T> => {
      if (locked) return fn(locked);
      const c = await pool.connect();
      try {
        return await fn(c);
      } finally {
        c.release();
      }
    };
    const runner: SqlRunner = {
      exec: (sql) =>
        onConnection(async (c) => {
          try {
            if (schema !== "public") await c.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
            await c.query(sql);
          } catch (err) {
            await c.query("ROLLBACK").catch(() => undefined);
            throw err;
          }
        }),
      query: (sql, params = []) => onConnection(async (c) => (await c.query(sql, params)).rows),
      withLock: async (fn) => {
        const c = await pool.connect();
        try {
          // Two app instances starting together must not both apply the same migration.
          await c.query("SELECT pg_advisory_lock(727274)");
          locked = c;
          return await fn();
        } finally {
          locked = null;
          await c.query("SELECT pg_advisory_unlock(727274)").catch(() => undefined);
          c.release();
        }
      },
    };
    // A database that cannot be reached yet is tried again by start-up (server/startup/database-wait.ts), which opens
    // new pools each time: these are ended, not left behind with their listeners.
    const migrated = await applyMigrations(runner).catch(async (err: unknown) => {
      await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
      throw err;
    });
    const prisma = new PrismaClient({
      adapter: new PrismaPg(pool as unknown as ConstructorParameters<typeof PrismaPg>[0], { schema }),
    });
    // Named: each pooled connection parses and plans a hot statement once, then only binds and runs it, and its
    // rows' description is asked for once in the process (./pg-named.ts).
    drivers.set(prisma, pgNamedDriver(hotPool, Query));
    pooled.set(prisma, Math.min(2, sizes.hot));
    return {
      prisma,
      runner,
      migrated,
      kind: "postgresql",
      close: async () => {
        await prisma.$disconnect();
        await Promise.all(pools.map((p) => p.end()));
      },
    };
  }

  const [pglite, { PrismaPGlite }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("pglite-prisma-adapter"),
  ]);
  const dir = dataDir();
  const target = inMemory(dir) ? dir : path.join(dir, "pglite");
  const { pg, keepAsTemplate } = await createPglite(pglite.PGlite, target).catch((err: unknown) => {
    // A folder the server may not read or write, a full disk, no memory: said as such, not as damaged files.
    if (err instanceof EmbeddedStoreUnreadable) throw err;
    const why = inMemory(target) ? null : embeddedOpenFailure(target, err);
    throw why ? new EmbeddedStoreUnreadable(why, { cause: err }) : err;
  });
  const { close: closePg, admit } = guardPgliteClose(pg);
  const runner: SqlRunner = {
    exec: async (sql) => {
      try {
        await pg.exec(sql);
      } catch (err) {
        await pg.exec("ROLLBACK").catch(() => undefined);
        throw err;
      }
    },
    query: async (sql, params = []) => (await pg.query(sql, params)).rows as Record<string, unknown>[],
    withLock: (fn) => fn(),
  };
  const migrated = await applyMigrations(runner);
  // The copy only saves later databases time: one that cannot be written is said, and this one opens all the same.
  if (keepAsTemplate)
    await writeTemplate(pg, keepAsTemplate).catch((err: Error) =>
      console.warn(`Could not keep the database template ${keepAsTemplate}: ${err.message}`),
    );
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pg) });
  // Named statements here too (./pglite-named.ts): parsed and planned once, each run one call into the module.
  drivers.set(prisma, admit(pgliteNamedDriver(pg, pglite)));
  return {
    prisma,
    runner,
    migrated,
    kind: "pglite",
    embedded: { pg, dir: target },
    close: async () => {
      await prisma.$disconnect();
      await closePg();
    },
  };
}

/** An embedded database folder PGlite cannot open: its message names the folder and what to do. */
export class EmbeddedStoreUnreadable extends Error {
  override name = "EmbeddedStoreUnreadable";
}

/**
 * Opens the embedded database already in `target`. One PGlite cannot read (files damaged or overwritten, a folder
 * copied while a server wrote to it) failed start-up with PGlite's own words ("PGlite failed to initialize properly",
 * or the WebAssembly module's "Aborted()"), which name neither the folder nor a way out: the error says both.
 */
async function openExisting(
  PGlite: typeof import("@electric-sql/pglite").PGlite,
  target: string,
): Promise<import("@electric-sql/pglite").PGlite> {
  try {
    return await PGlite.create(target);
  } catch (err) {
    // Said once here: the caller's catch passes an EmbeddedStoreUnreadable on as it is.
    const cause = embeddedOpenFailure(target, err);
    if (cause) throw new EmbeddedStoreUnreadable(cause, { cause: err });
    const why = ((err as Error)?.message || String(err)).split("\n")[0];
    throw new EmbeddedStoreUnreadable(
      `the embedded database in ${target} cannot be opened (${why}): its files are damaged, or are not a database ` +
        `this version can read. Restore a backup into the data folder ${path.dirname(target)} (README "Backup and ` +
        `restore"), or move ${target} out of it to start with a new, empty database.`,
      { cause: err },
    );
  }
}

/**
 * A new database starts from the kept template when SERVICE_DB_TEMPLATE_DIR has one (./template.ts); `keepAsTemplate`
 * names the file to write once this one is migrated, when there was none or it did not load.
 */
async function createPglite(
  PGlite: typeof import("@electric-sql/pglite").PGlite,
  target: string,
): Promise<{ pg: import("@electric-sql/pglite").PGlite; keepAsTemplate: string | null }> {
  if (!inMemory(target)) makeFolders(target); // PGlite does not create parent folders
  if (!isNewDatabase(target)) return { pg: await openExisting(PGlite, target), keepAsTemplate: null };
  const template = readTemplate();
  if (template.data) {
    try {
      return { pg: await PGlite.create(target, { loadDataDir: template.data }), keepAsTemplate: null };
    } catch {
      // A copy this PGlite cannot read (made by another version): start as if there were none, and replace it.
      if (!inMemory(target)) {
        rmSync(target, { recursive: true, force: true });
        makeFolders(target);
      }
    }
  }
  return { pg: await PGlite.create(target), keepAsTemplate: template.file };
}

/**
 * How the hot statements are planned. PostgreSQL plans a named statement for each run's values five times, then builds
 * one generic plan and keeps it while it costs less than those custom plans did on average. After an ANALYZE (the table
 * doubled: ./statistics.ts; or autovacuum's), the generic plan is rebuilt for the table's new size and compared with
 * custom plans costed when it was smaller, and every connection went back to planning the statement on each run until
 * the average caught up: in the login benchmark, a third to all of the reservation statements for seconds after each
 * ANALYZE, 0.8 ms of the database's CPU each. The hot statements are written to keep to their keys' indexes in a
 * generic plan (test/assessment/velocity-plan.test.ts), so they are always planned once: on PostgreSQL their pool's
 * connections start with this setting, on the embedded store each run sets it for its own transaction
 * (./pglite-named.ts). Prisma's statements keep PostgreSQL's default.
 */
const HOT_PLANS = "-c plan_cache_mode=force_generic_plan";

/** The hot connections' commits, when they do not wait for the disk flush (./config.ts hotCommitsAsync). */
const HOT_ASYNC_COMMIT = "-c synchronous_commit=off";

// The hot statements (a metered request's reservation, an assessment's velocity read and event write, history rows)
// skip Prisma's query pipeline and go to the driver under the root client as named statements: profiles of the
// metered path showed Prisma's per-query work (its query compiler included) as the largest part of the service's
// own CPU per request, and a named statement is parsed and planned once per connection (PostgreSQL's pool) or per
// database (PGlite, ./pglite-named.ts). Everything else, and anything inside a transaction, stays on Prisma.
// The map lives on globalThis like the handle: the production build can load this module more than once (a route
// bundle and the start-up bundle), and a copy that did not open the pool must still find its driver; with a map per
// copy, every hot statement of such a copy had silently gone through Prisma.
const drivers = (globalForDb.__serviceDbDrivers ??= new WeakMap<object, NamedDriver>());

// The root clients whose hot statements each take a connection of their own from PostgreSQL's pool, so that several
// run at once, with how many groups of a key may go at once: two, or one when the hot pool has one connection. The
// embedded store runs one statement at a time on this thread. On globalThis like `drivers`, for the same reason.
const pooled = (globalForDb.__serviceDbPooled ??= new WeakMap<object, number>());

/**
 * How many groups of one grouped writer's key (./grouped.ts) go to the database at once through `db`, for the writers
 * that take more than one (an assessment's reservation with its velocity read, and its write): two on PostgreSQL's
 * pool (one if its hot statements have a single connection), one on the embedded store, where a statement holds the
 * thread and a second group could only wait behind it.
 */
export function groupsInFlight(db: unknown): number {
  return pooled.get(db as object) ?? 1;
}

/** A hot statement's values as every driver reads them alike: dates as UTC ISO strings (see hotQuery). */
export const hotParams = (values: unknown[]): unknown[] => values.map((v) => (v instanceof Date ? v.toISOString() : v));

/**
 * Runs one of the hot statements as a named statement when `db` is a root client, else (a transaction client)
 * through Prisma. Dates are passed as UTC ISO strings, which `::timestamp(3)` reads the same on every way. Integer
 * results may come back as numbers, strings or bigints: read them with Number(). Return times as epoch numbers, not
 * timestamp columns (the drivers read a timestamp without time zone in the server's zone, Prisma in UTC), and pass
 * text parameters as strings (PGlite's driver refuses a bigint or an object for a text parameter).
 */
export async function hotQuery<T = Record<string, unknown>>(
  db: unknown,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const params = hotParams(values);
  const driver = drivers.get(db as object);
  if (driver) return (await driver(name, text, params)) as T[];
  return (db as PrismaClient).$queryRawUnsafe<T[]>(text, ...params);
}

/**
 * The connection string without the parameters this module applies itself: `schema` (Prisma's, read by
 * databaseSchema) and `options` (PostgreSQL's start-up options, returned apart). node-postgres lets a URL's `options`
 * replace the pool's, which would drop the search path and the hot statements' plan mode.
 */
function splitConnectionString(url: string): { connectionString: string; options: string } {
  try {
    const u = new URL(url);
    const options = u.searchParams.get("options") ?? "";
    u.searchParams.delete("schema");
    u.searchParams.delete("options");
    return { connectionString: u.toString(), options };
  } catch {
    return { connectionString: url, options: "" };
  }
}

function handle(): Promise<Handle> {
  globalForDb.__serviceDb ??= open().catch((err) => {
    globalForDb.__serviceDb = undefined;
    throw err;
  });
  return globalForDb.__serviceDb;
}

/** The process-wide Prisma client, opened and migrated on first use. */
export async function getDb(): Promise<PrismaClient> {
  return (await handle()).prisma;
}

/** The embedded PGlite instance and its folder; null on PostgreSQL. */
export async function embeddedStore(): Promise<Handle["embedded"] | null> {
  return (await handle()).embedded ?? null;
}

/** The migrations this process applied when it opened the database (empty when it was up to date). */
export async function migrationsAppliedAtOpen(): Promise<string[]> {
  return (await handle()).migrated;
}

export async function getDbKind(): Promise<"pglite" | "postgresql"> {
  return (await handle()).kind;
}

/**
 * Writes queued by modules above this one (lookup history, request outcomes) that must reach the database before
 * it closes. Each such module registers its flush when it loads, so this module imports none of them.
 */
const beforeClose = new Set<() => Promise<void>>();

export function flushBeforeClose(flush: () => Promise<void>): void {
  beforeClose.add(flush);
}

export async function closeDb(): Promise<void> {
  await Promise.all([...beforeClose].map((flush) => flush()));
  const h = globalForDb.__serviceDb;
  globalForDb.__serviceDb = undefined;
  if (h) await (await h).close();
}

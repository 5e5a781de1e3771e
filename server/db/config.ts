import { ConfigurationError, SCHEMA_NAME, setting } from "../env";
import path from "node:path";

/** PostgreSQL when DATABASE_URL is set; otherwise the embedded PGlite database in the data folder. */
export function databaseUrl(): string | null {
  return setting("DATABASE_URL");
}

/** The data folder's value that keeps PGlite, and everything else of the data folder, in memory (tests). */
const IN_MEMORY = "memory://";

/** Folder for embedded data (PGlite files, admin channel), or IN_MEMORY as given. */
export function dataDir(): string {
  const dir = setting("SERVICE_DATA_DIR");
  if (dir === IN_MEMORY) return dir;
  return path.resolve(/*turbopackIgnore: true*/ dir);
}

/**
 * Whether `dir` (by default the data folder) is in memory: then nothing of the data folder is written to disk (no
 * database files, no admin channel, keys and secrets held in memory).
 */
export function inMemory(dir: string = dataDir()): boolean {
  return dir === IN_MEMORY;
}

/** PostgreSQL schema to use; tests give each file its own. Defaults to `?schema=` of DATABASE_URL, else public. */
export function databaseSchema(): string {
  const explicit = setting("SERVICE_DB_SCHEMA");
  if (explicit) return explicit;
  const url = databaseUrl();
  if (url) {
    let s: string | null = null;
    try {
      s = new URL(url).searchParams.get("schema");
    } catch {
      // not a URL form we can read; fall through to public
    }
    // It goes into every connection's options, as SERVICE_DB_SCHEMA does: refused here rather than by PostgreSQL on
    // each connection, which start-up would wait on as a database that is away.
    if (s && !SCHEMA_NAME.test(s))
      throw new ConfigurationError(
        `DATABASE_URL is invalid: its ?schema= must be ${SCHEMA_NAME.says} (the value is not shown).`,
      );
    if (s) return s;
  }
  return "public";
}

export function poolSize(): number {
  return setting("SERVICE_DB_POOL_SIZE");
}

/**
 * How SERVICE_DB_POOL_SIZE's connections are shared: `hot` of them (four in ten, at least one) serve the hot
 * statements (server/db/client.ts hotQuery), the rest Prisma.
 */
export function poolSizes(): { main: number; hot: number } {
  const size = poolSize();
  const hot = Math.max(1, Math.floor(size * 0.4));
  return { main: size - hot, hot };
}

/**
 * Whether the hot statements (server/db/client.ts hotQuery) commit on PostgreSQL without waiting for the commit's disk
 * flush (SERVICE_DB_HOT_COMMIT, `async` by default). Each of an assessment's two statements waited for one, and so did
 * the reservation's row lock that the workspace's next group waits for (docs/benchmarks.md, "Commits that do not wait
 * for the disk"). PostgreSQL keeps such commits atomic and in order; a crash of the database server can lose the last
 * of them (at most three times `wal_writer_delay`). An assessment's write that queues a webhook delivery or opens a
 * review case asks for the flush itself (server/assessment/record.ts): background work is durable. A pooler that drops
 * the `options` startup parameter leaves every commit synchronous.
 */
export function hotCommitsAsync(): boolean {
  return setting("SERVICE_DB_HOT_COMMIT") === "async";
}

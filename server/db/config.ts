import { setting } from "../env";
import path from "node:path";

/** PostgreSQL when DATABASE_URL is set; otherwise the embedded PGlite database in the data folder. */
export function databaseUrl(): string | null {
  return setting("DATABASE_URL");
}

/** Folder for embedded data (PGlite files, admin channel). "memory://" keeps PGlite in memory (tests). */
export function dataDir(): string {
  const dir = setting("SERVICE_DATA_DIR");
  if (dir === "memory://") return dir;
  return path.resolve(/*turbopackIgnore: true*/ dir);
}

/** PostgreSQL schema to use; tests give each file its own. Defaults to `?schema=` of DATABASE_URL, else public. */
export function databaseSchema(): string {
  const explicit = setting("SERVICE_DB_SCHEMA");
  if (explicit) return explicit;
  const url = databaseUrl();
  if (url) {
    try {
      const s = new URL(url).searchParams.get("schema");
      if (s) return s;
    } catch {
      // not a URL form we can read; fall through to public
    }
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

import { numberSetting } from "../env";
import path from "node:path";

/** PostgreSQL when DATABASE_URL is set; otherwise the embedded PGlite database in the data folder. */
export function databaseUrl(): string | null {
  const url = process.env.DATABASE_URL?.trim();
  return url ? url : null;
}

/** Folder for embedded data (PGlite files, admin channel). "memory://" keeps PGlite in memory (tests). */
export function dataDir(): string {
  const dir = process.env.SERVICE_DATA_DIR?.trim();
  if (dir === "memory://") return dir;
  return path.resolve(/*turbopackIgnore: true*/ dir || ".data");
}

/** PostgreSQL schema to use; tests give each file its own. Defaults to `?schema=` of DATABASE_URL, else public. */
export function databaseSchema(): string {
  const explicit = process.env.SERVICE_DB_SCHEMA?.trim();
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
  return numberSetting("SERVICE_DB_POOL_SIZE", 10, { min: 1, max: 1000 });
}

// A new embedded database starts empty: PGlite runs initdb (about 4 s of CPU on a 2-core machine) and then every
// migration. With SERVICE_DB_TEMPLATE_DIR set (the tests set it, under node_modules/.cache, which a reinstall of
// PGlite empties), the first process to open a new database keeps a copy of it, migrated and still empty, in that
// folder, and later new databases (in memory, or a folder that holds none yet) start from the copy (about 1 s). The
// copy's name carries a digest of every migration's checksum, so a new or changed migration makes a new copy; a copy
// that does not load is replaced (server/db/client.ts). Writes are atomic (a temporary file renamed), so processes
// starting together at worst each make one.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { setting } from "../env";
import { inMemory } from "./config";
import { makeFolders } from "./make-folders.mjs";
import { listMigrations } from "./migrate";

/**
 * Whether `target` (a PGlite data folder, or in memory) holds no database yet. A folder that cannot be looked into
 * (permission denied) throws: taken for an empty one, a new database was started over the one in it.
 */
export function isNewDatabase(target: string): boolean {
  if (inMemory(target)) return true;
  try {
    statSync(path.join(target, "PG_VERSION"));
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw err;
  }
}

function templateFile(): string | null {
  const dir = setting("SERVICE_DB_TEMPLATE_DIR");
  if (!dir) return null;
  const digest = createHash("sha256");
  for (const m of listMigrations()) digest.update(`${m.name}:${m.checksum}\n`);
  return path.join(path.resolve(/*turbopackIgnore: true*/ dir), `pglite-${digest.digest("hex").slice(0, 24)}.tar`);
}

/** The kept copy for the current migrations, when the setting names a folder that has one. */
export function readTemplate(): { file: string; data: Blob } | { file: string | null; data: null } {
  const file = templateFile();
  if (!file || !existsSync(file)) return { file, data: null };
  return { file, data: new Blob([readFileSync(file)]) };
}

/** Keeps a copy of `pg`, just migrated and still empty, as the template `file`. */
export async function writeTemplate(pg: PGlite, file: string): Promise<void> {
  const dump = await pg.dumpDataDir("none");
  // Not Node's recursive mkdir, which spins for ever on a folder the system refuses (SERVICE_DB_TEMPLATE_DIR=/proc/x).
  makeFolders(path.dirname(file));
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    writeFileSync(temp, new Uint8Array(await dump.arrayBuffer()));
    renameSync(temp, file);
  } finally {
    rmSync(temp, { force: true });
  }
}

// `npm run admin -- backup --to DIR` (issue 22, item 15): a consistent copy of the embedded database, taken while
// the server runs. The server does it (through the admin channel, server/admin/channel.ts) because only the process
// holding the PGlite folder may touch it: a CHECKPOINT writes everything committed to the data files, then the folder
// is copied while PGlite runs no statement (its exclusive lock), so the copy is what a clean stop would leave, or at
// worst what a crash would (PostgreSQL's recovery replays its WAL on the next start). The encryption keys file goes
// with it: stored secrets cannot be read without it. DIR then has the layout of a data folder; restoring is copying
// it back (README, "Backup and restore").
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { AppError } from "../errors";
import { makeFolders } from "../db/make-folders.mjs";
import { embeddedStore } from "../db/client";
import { inMemory } from "../db/config";

export interface BackupResult {
  to: string;
  files: string[];
  createdAt: string;
}

/** `p` with symbolic links resolved in the part of it that exists (the rest is to be created under it). */
function realPath(p: string): string {
  const missing: string[] = [];
  let at = path.resolve(p);
  for (;;) {
    try {
      return path.join(realpathSync(at), ...missing.reverse());
    } catch {
      const up = path.dirname(at);
      if (up === at) return path.resolve(p);
      missing.push(path.basename(at));
      at = up;
    }
  }
}

export async function backupEmbeddedStore(to: string): Promise<BackupResult> {
  if (!path.isAbsolute(to)) throw new AppError("INVALID_REQUEST", "--to must be an absolute folder path.");
  const store = await embeddedStore();
  if (!store)
    throw new AppError(
      "INVALID_REQUEST",
      "backup copies the embedded database; with DATABASE_URL use PostgreSQL's own tools (pg_dump).",
    );
  if (inMemory(store.dir)) throw new AppError("INVALID_REQUEST", "The database is in memory: nothing to back up.");
  const dataFolder = path.dirname(store.dir);
  // A backup inside what it backs up is lost with it (and one inside pglite/ would be copied into itself). Compared
  // after symbolic links are resolved; a folder named "..snap" is inside, only ".." itself leads out.
  const within = path.relative(realPath(dataFolder), realPath(to));
  if (within === "" || (within !== ".." && !within.startsWith(`..${path.sep}`) && !path.isAbsolute(within)))
    throw new AppError(
      "INVALID_REQUEST",
      `${to} is inside the data folder it would back up (${dataFolder}); back up into a folder outside it.`,
    );
  if (existsSync(to) && !statSync(to).isDirectory())
    throw new AppError("INVALID_REQUEST", `${to} is a file; back up into a new or empty folder.`);
  if (existsSync(to) && readdirSync(to).length > 0)
    throw new AppError("INVALID_REQUEST", `${to} is not empty; back up into a new or empty folder.`);
  const existed = existsSync(to);
  try {
    makeFolders(to, 0o700);
  } catch (err) {
    throw new AppError("INVALID_REQUEST", `cannot create ${to}: ${whyNotWritten(to, err)}`);
  }
  await store.pg.exec("CHECKPOINT");
  const files = [path.basename(store.dir)];
  const createdAt = new Date().toISOString();
  try {
    await store.pg.runExclusive(async () => {
      cpSync(store.dir, path.join(to, path.basename(store.dir)), { recursive: true });
    });
    const keys = path.join(dataFolder, "encryption-keys");
    if (existsSync(keys)) {
      copyFileSync(keys, path.join(to, "encryption-keys"));
      chmodSync(path.join(to, "encryption-keys"), 0o600);
      files.push("encryption-keys");
    }
    writeFileSync(
      path.join(to, "backup.json"),
      `${JSON.stringify({ createdAt, from: dataFolder, files }, null, 2)}\n`,
      {
        mode: 0o600,
      },
    );
  } catch (err) {
    // No half-written backup is left (a later backup into the same folder would be refused as not empty): the folder
    // was new or empty, so everything in it is this run's.
    if (existed) for (const entry of readdirSync(to)) rmSync(path.join(to, entry), { recursive: true, force: true });
    else rmSync(to, { recursive: true, force: true });
    throw new AppError("INVALID_REQUEST", `cannot write the backup into ${to}: ${whyNotWritten(to, err)}`);
  }
  return { to, files, createdAt };
}

/**
 * Why the folder `to` could not be made or written, in plain words: it was a stack and "Internal error." (a file on
 * the path, a folder the operator may not write, a read-only or full device).
 */
function whyNotWritten(to: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === "ENOTDIR") {
    // The nearest part of the path that exists is a file.
    let at = path.dirname(to);
    while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
    return `${at} is a file, not a folder; back up into a new or empty folder.`;
  }
  if (code === "EACCES" || code === "EPERM") {
    const uid = process.getuid?.();
    return `permission denied; back up into a folder ${uid === undefined ? "this process" : `the user with uid ${uid}`} may write (the server's user when a server runs the command).`;
  }
  if (code === "ENOENT")
    return "the file system does not let folders be created there (such as /proc); back up onto an ordinary one.";
  if (code === "EROFS") return "the file system is read-only; back up onto a writable one.";
  if (code === "ENOSPC" || code === "EDQUOT")
    return "no space left on the device; free some space or back up elsewhere.";
  // Node's own words without its code prefix ("EEXIST: file already exists, mkdir '…'").
  return ((err as Error)?.message ?? String(err)).replace(/^[A-Z]+: /, "");
}

// Why an embedded database folder could not be opened, when the files are not to blame. PGlite words every failure to
// open a folder alike ("PGlite failed to initialize properly", the WebAssembly module's "Aborted()", or an ErrnoError
// with only Emscripten's errno), so a folder the server may not read or write, a full disk or a process out of memory
// were all reported as damaged files ("restore a backup or move the folder"), which sends an operator the wrong way.
// This looks at the error first, then at the folder itself (server/db/client.ts asks before calling it damaged).
import { accessSync, constants, readdirSync, statfsSync, statSync } from "node:fs";
import path from "node:path";

// Emscripten's errno numbers (its own table, not Linux's), as PGlite's file system layer reports them.
const EMSCRIPTEN_ERRNO: Record<number, string> = { 2: "EACCES", 63: "EPERM", 51: "ENOSPC", 48: "ENOMEM", 69: "EROFS" };

/** Below this much free space, a PostgreSQL folder cannot be opened: one write-ahead log segment is 16 MiB. */
const LEAST_FREE_BYTES = 16 * 1024 * 1024;

/** How many entries of the folder are looked at for one that cannot be read or written (a PGlite folder has ~1,000). */
const MOST_ENTRIES = 20_000;

function errorCode(err: unknown): { code: string; path?: string; message: string } | null {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const {
      code,
      errno,
      path: where,
      name,
      message,
    } = e as {
      code?: unknown;
      errno?: unknown;
      path?: unknown;
      name?: unknown;
      message?: unknown;
    };
    const text = typeof message === "string" ? message : "";
    if (typeof code === "string" && /^E[A-Z]+$/.test(code))
      return { code, path: typeof where === "string" ? where : undefined, message: text };
    if (name === "ErrnoError" && typeof errno === "number" && EMSCRIPTEN_ERRNO[errno])
      return { code: EMSCRIPTEN_ERRNO[errno]!, message: text };
    if (/could not allocate memory|out of memory|cannot allocate memory|allocation failed/i.test(text))
      return { code: "ENOMEM", message: text.split("\n")[0]! };
  }
  return null;
}

/** The first entry of `dir` (itself included) this process may not read and write, or null. */
function firstDenied(dir: string): string | null {
  const pending = [dir];
  let seen = 0;
  while (pending.length && seen < MOST_ENTRIES) {
    const at = pending.shift()!;
    seen++;
    let isDir: boolean;
    try {
      isDir = statSync(at).isDirectory();
      accessSync(at, constants.R_OK | constants.W_OK | (isDir ? constants.X_OK : 0));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EACCES" || code === "EPERM") return at;
      continue;
    }
    if (!isDir) continue;
    try {
      for (const name of readdirSync(at)) pending.push(path.join(at, name));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EACCES" || code === "EPERM") return at;
    }
  }
  return null;
}

/** The free bytes and inodes of the device that holds `dir` (or its nearest existing parent), or null. */
function freeSpace(dir: string): { bytes: number; inodes: number } | null {
  for (let at = dir; ; at = path.dirname(at)) {
    try {
      const s = statfsSync(at);
      // Root may use the blocks the file system keeps back for it; anyone else only the available ones.
      const blocks = process.getuid?.() === 0 ? s.bfree : s.bavail;
      return { bytes: blocks * s.bsize, inodes: s.files > 0 ? s.ffree : Number.POSITIVE_INFINITY };
    } catch {
      if (path.dirname(at) === at) return null;
    }
  }
}

const megabytes = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

function user(): string {
  const uid = process.getuid?.();
  return uid === undefined ? "the user it runs as" : `the user it runs as (user id ${uid})`;
}

/**
 * What stopped the embedded database in `target` from opening when it is not damaged files: permission denied on a
 * path in it, no space left on its device, a read-only file system, or out of memory. One sentence naming what to do,
 * or null when none of these is the cause (the caller then says the files are damaged).
 */
export function embeddedOpenFailure(target: string, err: unknown): string | null {
  return describe(`the embedded database in ${target} cannot be opened`, target, err, true);
}

/**
 * The same for the data folder itself (its lock file, written before the database opens), when `err` is one of those
 * causes; null for any other error.
 */
export function dataFolderFailure(dir: string, err: unknown): string | null {
  return describe(`the data folder ${dir} cannot be used`, dir, err, false);
}

function describe(opening: string, folder: string, err: unknown, lookInside: boolean): string | null {
  const known = errorCode(err);
  const denied = (where: string) =>
    `${opening}: permission denied on ${where}: fix its owner or mode so that ${user()} can read and write it ` +
    `and everything in ${folder} (for example chown -R or chmod -R u+rwX on the data folder)`;
  const noSpace = (free: string) =>
    `${opening}: no space left on the device that holds it (${free} free): free some space on it, or move the data ` +
    `folder to a larger device, and start again`;
  if (known?.code === "ENOMEM")
    return (
      `${opening}: out of memory${known.message ? ` (${known.message})` : ""}: give the process more memory ` +
      `(its container's memory limit, or ulimit -v) and start again`
    );
  if (known?.code === "EROFS")
    return `${opening}: its file system is read-only: mount it read-write, or move the data folder, and start again`;
  // The folder's own entries first (a folder that may not be searched makes every path under it fail), then the path
  // the error names. Looked at before the disk: a folder that cannot be read says nothing true about its device.
  if (known?.code === "EACCES" || known?.code === "EPERM") {
    const where = firstDenied(folder) ?? known.path;
    if (where) return denied(where);
  }
  if (known?.code === "ENOSPC" || known?.code === "EDQUOT") {
    const free = freeSpace(folder);
    return noSpace(free ? megabytes(free.bytes) : "nothing");
  }
  if (!lookInside) return null;
  const deniedEntry = firstDenied(folder);
  if (deniedEntry) return denied(deniedEntry);
  const free = freeSpace(folder);
  if (free && free.inodes === 0) return noSpace("no file entries");
  // Guessed from the disk alone (the error named no cause): a nearly full device is the likely one, but not the only.
  if (free && free.bytes < LEAST_FREE_BYTES)
    return `${noSpace(megabytes(free.bytes))} (if that does not help, its files may be damaged: restore a backup)`;
  return null;
}

// The admin channel: an embedded PGlite folder can be opened by one process only, so while the server runs on
// the embedded database it listens on a Unix socket in the data folder (owner-only permissions) and the CLI
// hands its command to the server instead of opening the database itself.
import { createHash } from "node:crypto";
import { chmodSync, existsSync, linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { dataDir, inMemory } from "../db/config";
import { dataFolderFailure } from "../db/open-failure";
import { makeFolders } from "../db/make-folders.mjs";

export function adminSocketPath(): string {
  const dir = dataDir();
  const p = path.join(dir, "admin.sock");
  if (p.length < 100) return p;
  return path.join(os.tmpdir(), `svc-admin-${createHash("sha256").update(dir).digest("hex").slice(0, 16)}.sock`);
}

type Handler = (argv: string[]) => Promise<{ status: number; body: unknown }>;

export async function listenAdminChannel(handler: Handler): Promise<http.Server | null> {
  // A database in memory has no folder to put the socket in, and no other process could reach that database anyway.
  if (inMemory()) return null;
  const sock = adminSocketPath();
  if (existsSync(sock)) {
    if (await channelAccepts(sock)) return null; // another live server owns this data folder
    unlinkSync(sock);
  }
  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (raw += c));
    req.on("end", async () => {
      let status = 500;
      let body: unknown = { error: { code: "INTERNAL_ERROR", message: "Internal error." } };
      try {
        const argv = JSON.parse(raw).argv;
        if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) throw new Error("bad argv");
        ({ status, body } = await handler(argv));
      } catch {
        status = 400;
        body = { error: { code: "INVALID_REQUEST", message: "Malformed admin request." } };
      }
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(sock, () => resolve());
  });
  chmodSync(sock, 0o600);
  server.unref();
  const cleanup = () => {
    try {
      unlinkSync(sock);
    } catch {
      // already gone
    }
  };
  process.once("exit", cleanup);
  return server;
}

/**
 * True when something accepts connections on the channel's socket: a server holds the folder, even one too busy to
 * answer a ping in time (a start-up on a loaded machine must not take a slow owner for a dead one).
 */
export function channelAccepts(sock = adminSocketPath()): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(sock);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export function sendAdminCommand(argv: string[], sock = adminSocketPath()): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath: sock, path: "/", method: "POST", headers: { "Content-Type": "application/json" } },
      (res) => {
        let raw = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (raw += c));
        res.on("end", () => {
          try {
            resolve({ status: res.statusCode ?? 500, body: JSON.parse(raw) });
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ argv }));
  });
}

function pidFile(): string {
  return path.join(dataDir(), "server.pid");
}

/** What a live process that may hold the folder is: a server, an admin command (`npm run admin`, `db:migrate`), or null. */
export function holderKind(pid: number): "server" | "command" | null {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  // A server.pid left by a stopped server (a container restart, a restored backup) may name a process id that now
  // belongs to another program: where the command line can be read, only a server or an admin command counts.
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    if (/scripts\/(server|start)\.mjs|next\/dist\/bin\/next|next-server|next start/.test(cmdline)) return "server";
    return /server\/admin\/(cli|migrate-cli)\.ts/.test(cmdline) ? "command" : null;
  } catch {
    return existsSync("/proc/self") ? null : "server";
  }
}

function processAlive(pid: number): boolean {
  return holderKind(pid) !== null;
}

function lockFile(): string {
  return path.join(dataDir(), "server.lock");
}

/** The pid a lock file names, or null (gone, empty, not a pid). */
function pidIn(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

let lockHeld: string | null = null;

/**
 * Takes the embedded database folder for this process before the database opens: `server.lock`, created exclusively
 * (a complete file linked into place, which fails when one is there) and holding the pid. Null when taken (or already
 * this process's); the holder's pid when another running server holds it. A lock whose process has gone, or is no
 * server (a pid reused after a crash or a restored backup), is moved aside, checked to be the one seen, and replaced.
 */
export function lockEmbeddedStore(): number | null {
  if (inMemory()) return null;
  try {
    return takeLock();
  } catch (err) {
    // A data folder the process may not write, or whose device is full: said as such, not as Node's bare errno line.
    const why = dataFolderFailure(dataDir(), err);
    throw why ? new Error(why, { cause: err }) : err;
  }
}

function takeLock(): number | null {
  makeFolders(dataDir());
  const lock = lockFile();
  const mine = `${lock}.${process.pid}`;
  for (let attempt = 0; attempt < 10; attempt++) {
    writeFileSync(mine, String(process.pid), { mode: 0o600 });
    try {
      linkSync(mine, lock);
      unlinkSync(mine);
      if (lockHeld !== lock) process.once("exit", releaseEmbeddedStore);
      lockHeld = lock;
      return null;
    } catch (err) {
      unlinkSync(mine);
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const holder = pidIn(lock);
    if (holder === process.pid) {
      lockHeld = lock;
      return null;
    }
    if (holder !== null && processAlive(holder)) return holder;
    // Stale: moved aside first, so that a lock another server linked in meanwhile is not deleted but put back.
    const aside = `${lock}.stale.${process.pid}`;
    try {
      renameSync(lock, aside);
    } catch {
      continue; // gone already
    }
    if (pidIn(aside) !== holder) {
      try {
        linkSync(aside, lock);
      } catch {
        // another lock is in place again
      }
    }
    unlinkSync(aside);
  }
  throw new Error(`could not take ${lock}: it keeps changing`);
}

/** Gives the folder's lock back, when this process holds it (at exit, or after a failed start). */
export function releaseEmbeddedStore(): void {
  const lock = lockHeld;
  lockHeld = null;
  if (!lock || pidIn(lock) !== process.pid) return;
  try {
    unlinkSync(lock);
  } catch {
    // already gone
  }
}

/** The pid of a running server that holds the embedded folder's lock, else null. */
function lockHolder(): number | null {
  const pid = pidIn(lockFile());
  return pid !== null && pid !== process.pid && processAlive(pid) ? pid : null;
}

/** Records this server as the owner of the embedded database folder. */
export function writeServerPid(): void {
  if (inMemory()) return;
  makeFolders(dataDir());
  writeFileSync(pidFile(), String(process.pid));
}

/**
 * True when a running server owns the embedded database: its channel accepts connections (a server too busy to
 * answer a ping in time still holds the folder), or a live server process is still starting up (then wait for its
 * channel rather than open the folder a second time). Another admin command holding the folder is waited for too.
 */
export async function serverOwnsEmbeddedDb(): Promise<boolean> {
  if (inMemory()) return false;
  if (await channelAccepts()) return true;
  // start.mjs names the server it starts in server.pid at once; the server takes the lock before the database opens.
  const recorded = pidIn(pidFile());
  const pid = recorded !== null && holderKind(recorded) === "server" ? recorded : lockHolder();
  if (pid === null) return false;
  const kind = holderKind(pid);
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 500));
    if (await channelAccepts()) return true;
    if (!processAlive(pid)) return false;
  }
  throw new Error(
    kind === "command"
      ? `Another admin command (process ${pid}) has held the embedded database for over 60 s: try again when it ends.`
      : "A server process owns the embedded database but its admin channel did not open within 60 s.",
  );
}

/**
 * For an admin command (`npm run admin`, `npm run db:migrate`) on the embedded database: "server" when a running
 * server owns it (send the command through its channel), else "mine" once this process holds the folder's lock, so
 * that a server started while the command runs is refused instead of opening the same files. The lock goes at exit
 * (releaseEmbeddedStore to give it back sooner).
 */
export async function claimEmbeddedStoreForCommand(): Promise<"server" | "mine"> {
  for (;;) {
    if (await serverOwnsEmbeddedDb()) return "server";
    // A server (or another command) that took the lock since: wait for it as above.
    if (lockEmbeddedStore() === null) return "mine";
  }
}

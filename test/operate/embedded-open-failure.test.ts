// An existing embedded database folder that cannot be opened for a reason other than damaged files: the server and
// the admin CLI said "its files are damaged ... Restore a backup ... or move the folder" for a folder the process may
// not read (EACCES), a full device (ENOSPC) and a process out of memory alike, which sends an operator to restore a
// backup over a database that is fine. Each is now said as what it is, in one line, and the folder is left as it was.
// Every case uses a real folder and a real process: run as root (where modes deny nothing) the CLI runs as `nobody`
// (setpriv), and the full device is a small tmpfs mounted in a mount namespace of the CLI's own (unshare).
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProcess } from "../run-process";

const root = path.resolve(__dirname, "../..");
const asRoot = process.getuid?.() === 0;
const work = mkdtempSync(path.join(os.tmpdir(), "svc-open-failure-"));
// A database with one row, made once; each case works on a copy of it.
const original = path.join(work, "original");
chmodSync(work, 0o755);

beforeAll(async () => {
  mkdirSync(original);
  const pg = await PGlite.create(path.join(original, "pglite"));
  await pg.exec("CREATE TABLE kept (id int); INSERT INTO kept VALUES (7)");
  await pg.close();
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

function copy(name: string): { dir: string; store: string } {
  const dir = path.join(work, name);
  cpSync(original, dir, { recursive: true });
  // Everyone may use it (the CLI may run as another user than the test): each case takes away what it tests.
  const open = (p: string) => {
    chmodSync(p, 0o777);
    for (const e of readdirSync(p, { withFileTypes: true }))
      if (e.isDirectory()) open(path.join(p, e.name));
      else chmodSync(path.join(p, e.name), 0o666);
  };
  open(dir);
  return { dir, store: path.join(dir, "pglite") };
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * The admin CLI (by default its `sql` command) on `dir` as a process, `prefix` (shell) run before it in the same
 * shell and `suffix` after it (the command's exit code is then the shell's).
 */
function cli(
  dir: string,
  opts: { asOtherUser?: boolean; prefix?: string; suffix?: string; namespace?: boolean; args?: string[] } = {},
) {
  const command = [process.execPath, "--import", "tsx", path.join(root, "server/admin/cli.ts")]
    .concat(opts.args ?? ["sql", "--query", "SELECT id FROM kept"])
    .map(quote)
    .join(" ");
  const run = opts.suffix ? `${command}; rc=$?; ${opts.suffix}; exit $rc` : `exec ${command}`;
  let argv = ["sh", "-c", `${opts.prefix ?? ""}${run}`];
  // Root reads every file whatever its mode: the command then runs as nobody, as a service account would.
  if (opts.asOtherUser && asRoot) argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", ...argv];
  // A mount of the command's own, gone with it (user namespace too when not root).
  if (opts.namespace) argv = ["unshare", asRoot ? "-m" : "-rm", ...argv];
  return runProcess(argv, {
    cwd: root,
    env: { ...process.env, NODE_ENV: "test", DATABASE_URL: "", SERVICE_DATA_DIR: dir, HOME: work },
  });
}

/** The folder still opens and holds its row once the test gives back what it took. */
async function stillThere(store: string): Promise<void> {
  const pg = await PGlite.create(store);
  try {
    expect((await pg.query("SELECT id FROM kept")).rows).toEqual([{ id: 7 }]);
  } finally {
    await pg.close();
  }
}

const DAMAGED = /damaged|Restore a backup|Internal error/;

describe("admin CLI on an existing embedded database it may not read", () => {
  it("names the file it may not read and says to fix its owner or mode, in one line, exit 1", async () => {
    const { dir, store } = copy("unreadable-file");
    const control = path.join(store, "global", "pg_control");
    chmodSync(control, 0o000);
    const r = await cli(dir, { asOtherUser: true });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")).toEqual([
      expect.stringContaining(`the embedded database in ${store} cannot be opened: permission denied on ${control}`),
    ]);
    expect(r.stderr).toContain("fix its owner or mode");
    expect(r.stderr).not.toMatch(DAMAGED);
    chmodSync(control, 0o666);
    await stillThere(store);
  }, 120_000);

  it("names the database folder when the folder itself may not be read, and starts no new database in it", async () => {
    const { dir, store } = copy("unreadable-folder");
    chmodSync(store, 0o000);
    const r = await cli(dir, { asOtherUser: true });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")).toEqual([
      expect.stringContaining(`the embedded database in ${store} cannot be opened: permission denied on ${store}:`),
    ]);
    expect(r.stderr).not.toMatch(DAMAGED);
    chmodSync(store, 0o777);
    await stillThere(store);
  }, 120_000);
});

describe("admin CLI on an existing embedded database whose device is full", () => {
  const mount = path.join(work, "mnt");
  /** A 64 MB tmpfs over an empty folder in the command's own namespace, the database copied in, the rest filled. */
  const full = (dir: string, beforeFilling = "") =>
    `mkdir -p ${quote(mount)} && mount -t tmpfs -o size=64m tmpfs ${quote(mount)} && ` +
    `cp -a ${quote(dir)}/. ${quote(mount)}/ && ${beforeFilling}` +
    `(dd if=/dev/zero of=${quote(mount)}/fill bs=1M 2>/dev/null; true) && `;

  it("says no space is left on the device when the database cannot be opened, not that its files are damaged", async () => {
    const { dir } = copy("full-device");
    // The command's lock file (server.lock.<its pid>, the shell's pid as it execs) is made before the device fills,
    // so the lock is taken and what fails is opening the database.
    const r = await cli(mount, { namespace: true, prefix: full(dir, `echo > ${quote(mount)}/server.lock.$$ && `) });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")).toEqual([
      expect.stringContaining(
        `the embedded database in ${mount}/pglite cannot be opened: no space left on the device that holds it (`,
      ),
    ]);
    // PGlite names no cause for a full device: the line says the space first, and damage only as what is left if
    // freeing space does not help (not "restore a backup" alone, as before).
    expect(r.stderr).toMatch(/\(if that does not help, its files may be damaged: restore a backup\)$/);
    expect(r.stderr).not.toMatch(/Internal error|its files are damaged, or/);
  }, 120_000);

  it("says so too when the data folder's lock file cannot be written, in one line", async () => {
    const { dir } = copy("full-device-lock");
    const r = await cli(mount, { namespace: true, prefix: full(dir) });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")).toEqual([
      expect.stringContaining(`the data folder ${mount} cannot be used: no space left on the device that holds it (`),
    ]);
  }, 120_000);
});

describe("admin CLI on a data folder it may not write", () => {
  it("names the folder and says to fix its owner or mode, in one line", async () => {
    const { dir } = copy("read-only-folder");
    chmodSync(dir, 0o555);
    const r = await cli(dir, { asOtherUser: true });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")).toEqual([
      expect.stringContaining(
        `the data folder ${dir} cannot be used: permission denied on ${dir}: fix its owner or mode`,
      ),
    ]);
  }, 120_000);
});

describe("admin backup onto a device that fills up", () => {
  it("says no space is left in one line and leaves no half-written backup behind", async () => {
    // The copy (cpSync of the database, then the keys and backup.json) failed with a stack and "Internal error.", and
    // left a partial folder that every later backup into the same --to refused as "not empty".
    const { dir } = copy("backup-full-device");
    const mount = path.join(work, "small");
    const to = path.join(mount, "snap");
    const r = await cli(dir, {
      namespace: true,
      args: ["backup", "--to", to],
      prefix: `mkdir -p ${quote(mount)} && mount -t tmpfs -o size=1m tmpfs ${quote(mount)} && `,
      suffix: `echo "left: $(ls -A ${quote(mount)})"`,
    });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")).toEqual([
      expect.stringContaining(`cannot write the backup into ${to}: no space left on the device`),
    ]);
    expect(r.stderr).not.toMatch(/Internal error|ENOSPC:/);
    expect(r.stdout).toBe("left:");
  }, 120_000);
});

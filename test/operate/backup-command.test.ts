// `admin backup --to DIR` in-process (issue 22, item 15): on the embedded database a copy that opens as a data folder
// with the same rows, into a new folder only; on PostgreSQL a refusal naming pg_dump. A server.pid naming a live
// process that is not a server (this test's own) does not make the admin CLI wait for a server.
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const folder = mkdtempSync(path.join(tmpdir(), "svc-backup-cmd-"));
const onPg = Boolean(process.env.DATABASE_URL);
if (!onPg) process.env.SERVICE_DATA_DIR = path.join(folder, "data");

let app: import("../harness").TestApp;
beforeAll(async () => {
  const { createTestApp } = await import("../harness");
  app = await createTestApp();
});

afterAll(async () => {
  const { closeDb } = await import("../../server/db/client");
  await closeDb();
  rmSync(folder, { recursive: true, force: true });
});

describe("admin backup", () => {
  it(onPg ? "refuses on PostgreSQL, naming pg_dump" : "copies the embedded database into a new folder", async () => {
    const { runAdminCommand } = await import("../../server/admin/commands");
    const ws = await app.seedWorkspace({ name: "Kept" });
    const to = path.join(folder, "snapshot");
    if (onPg) {
      await expect(runAdminCommand(app.db, ["backup", "--to", to])).rejects.toThrow(/pg_dump/);
      return;
    }
    const r = await runAdminCommand(app.db, ["backup", "--to", to]);
    expect((r.result as { files: string[] }).files).toContain("pglite");
    expect(readdirSync(to)).toEqual(expect.arrayContaining(["pglite", "backup.json"]));
    await expect(runAdminCommand(app.db, ["backup", "--to", to])).rejects.toThrow(/not empty/);
    await expect(runAdminCommand(app.db, ["backup", "--to", "relative/dir"])).rejects.toThrow(/absolute/);

    // The copy opens on its own and holds the workspace.
    const { PGlite } = await import("@electric-sql/pglite");
    const copy = await PGlite.create(path.join(to, "pglite"));
    try {
      const rows = await copy.query<{ name: string }>(`SELECT name FROM "Workspace" WHERE id = $1`, [ws.workspaceId]);
      expect(rows.rows).toEqual([{ name: "Kept" }]);
    } finally {
      await copy.close();
    }
  });

  it("refuses a file, and a folder inside the data folder, in plain words", async () => {
    // --to naming a file answered a stack and "Internal error." (ENOTDIR); a folder inside the data folder was taken,
    // so the backup sat in what it backs up (and --to inside pglite/ had the copy go into itself).
    const { runAdminCommand } = await import("../../server/admin/commands");
    const { dataDir } = await import("../../server/db/config");
    const file = path.join(folder, "a-file");
    writeFileSync(file, "x");
    if (onPg) {
      await expect(runAdminCommand(app.db, ["backup", "--to", file])).rejects.toThrow(/pg_dump/);
      return;
    }
    await expect(runAdminCommand(app.db, ["backup", "--to", file])).rejects.toThrow(
      `${file} is a file; back up into a new or empty folder.`,
    );
    // A folder whose name starts with two dots is inside too (it was taken: its relative path starts with ".."), and
    // so is a path that reaches the data folder through a symbolic link.
    const link = path.join(folder, "link-to-data");
    symlinkSync(dataDir(), link);
    for (const inside of [
      path.join(dataDir(), "backups", "today"),
      path.join(dataDir(), "pglite", "copy"),
      dataDir(),
      path.join(dataDir(), "..snap"),
      path.join(link, "snap"),
      path.join(link, "new", "snap"),
    ])
      await expect(runAdminCommand(app.db, ["backup", "--to", inside])).rejects.toThrow(
        `${inside} is inside the data folder it would back up (${dataDir()}); back up into a folder outside it.`,
      );
    expect(existsSync(path.join(dataDir(), "..snap"))).toBe(false);
    // A folder that cannot be made (a file on its path) is said in plain words too, not as a stack and
    // "Internal error.", and nothing is left behind.
    const under = path.join(file, "snap");
    const refused = await runAdminCommand(app.db, ["backup", "--to", under]).catch((err: unknown) => err);
    const { adminFailure } = await import("../../server/admin/commands");
    expect(adminFailure(refused)).toEqual({
      status: 400,
      code: "INVALID_REQUEST",
      message: `cannot create ${under}: ${file} is a file, not a folder; back up into a new or empty folder.`,
      internal: false,
    });
    // Beside the data folder, a name starting with two dots is outside.
    const beside = path.join(path.dirname(dataDir()), "..beside");
    await runAdminCommand(app.db, ["backup", "--to", beside]);
    expect(readdirSync(beside)).toContain("pglite");
  });

  it("ignores a server.pid that names a live process other than a server", async () => {
    const { serverOwnsEmbeddedDb } = await import("../../server/admin/channel");
    const { dataDir } = await import("../../server/db/config");
    const dir = onPg ? path.join(folder, "pg-data") : dataDir();
    process.env.SERVICE_DATA_DIR = dir;
    const { mkdirSync } = await import("node:fs");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "server.pid"), String(process.pid));
    const started = Date.now();
    expect(await serverOwnsEmbeddedDb()).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

// New embedded databases start from a kept migrated copy when SERVICE_DB_TEMPLATE_DIR names a folder
// (server/db/template.ts): the first one runs initdb and every migration and leaves the copy, later ones load it and
// apply nothing; a copy that does not load is replaced; a folder that already holds a database is opened as it is.
// It runs on the embedded store whatever DATABASE_URL says: the copy is PGlite's.
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { closeDb, getDb, migrationsAppliedAtOpen } from "../../server/db/client";
import { listMigrations } from "../../server/db/migrate";

delete process.env.DATABASE_URL;
const templates = mkdtempSync(path.join(tmpdir(), "svc-db-template-"));
const folders: string[] = [];
const all = listMigrations().map((m) => m.name);

async function reopen(dataDir: string) {
  await closeDb();
  process.env.SERVICE_DATA_DIR = dataDir;
  const db = await getDb();
  const recorded = await db.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`,
  );
  return { db, applied: await migrationsAppliedAtOpen(), recorded: recorded[0]!.n };
}

const copies = () => readdirSync(templates).filter((f) => f.endsWith(".tar"));

beforeEach(() => {
  process.env.SERVICE_DB_TEMPLATE_DIR = templates;
});

afterAll(async () => {
  await closeDb();
  rmSync(templates, { recursive: true, force: true });
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

describe("a template for new embedded databases", () => {
  it("the first new database migrates and leaves a copy; the next starts from it, migrated and empty", async () => {
    const first = await reopen("memory://");
    expect(first.applied).toEqual(all);
    expect(copies()).toHaveLength(1);
    await first.db.workspace.create({ data: { id: "ws_first", name: "Only in the first" } });

    const second = await reopen("memory://");
    expect(second.applied).toEqual([]);
    expect(second.recorded).toBe(all.length);
    expect(await second.db.workspace.count()).toBe(0);
    expect(copies()).toHaveLength(1);
  });

  it("a new data folder starts from the copy and keeps what is written to it", async () => {
    await reopen("memory://"); // makes sure the copy exists
    const dir = mkdtempSync(path.join(tmpdir(), "svc-db-folder-"));
    folders.push(dir);
    const fresh = await reopen(dir);
    expect(fresh.applied).toEqual([]);
    await fresh.db.workspace.create({ data: { id: "ws_kept", name: "Kept" } });

    const again = await reopen(dir);
    expect(again.applied).toEqual([]);
    expect((await again.db.workspace.findMany()).map((w) => w.name)).toEqual(["Kept"]);
  });

  it("a copy that does not load is replaced by a good one", async () => {
    await reopen("memory://");
    const [file] = copies();
    writeFileSync(path.join(templates, file!), "not a database");
    const opened = await reopen("memory://");
    expect(opened.applied).toEqual(all);
    expect(statSync(path.join(templates, file!)).size).toBeGreaterThan(1_000_000);
    expect((await reopen("memory://")).applied).toEqual([]);
  });

  it("a folder where no copy can be written still opens the database, and says why nothing was kept", async () => {
    const blocker = path.join(templates, "a-file");
    writeFileSync(blocker, "");
    process.env.SERVICE_DB_TEMPLATE_DIR = path.join(blocker, "inside");
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (m: string) => warnings.push(m);
    try {
      const opened = await reopen("memory://");
      expect(opened.applied).toEqual(all);
      expect(opened.recorded).toBe(all.length);
    } finally {
      console.warn = warn;
    }
    expect(warnings).toEqual([expect.stringMatching(/^Could not keep the database template .*a-file\/inside\//)]);
  });

  it("without the setting every new database runs its migrations and no copy is read or written", async () => {
    await reopen("memory://");
    const [file] = copies();
    const before = statSync(path.join(templates, file!)).mtimeMs;
    process.env.SERVICE_DB_TEMPLATE_DIR = "";
    expect((await reopen("memory://")).applied).toEqual(all);
    expect(copies()).toEqual([file]);
    expect(statSync(path.join(templates, file!)).mtimeMs).toBe(before);
  });
});

// The first run's demo workspace (issue 22, item 13): its API key is shown once, never in the log stream; on a
// terminal as a marked notice on stderr, otherwise in a 0600 file under the data folder whose path is logged. With
// SERVICE_ENV=production no demo workspace is created.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogLines } from "../log-lines";
import { seedDemoOnFirstRun } from "../../server/startup/demo";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
let lines: string[] = [];
const folder = mkdtempSync(path.join(tmpdir(), "svc-demo-"));
const saved = { env: process.env.SERVICE_ENV, dir: process.env.SERVICE_DATA_DIR, seed: process.env.SERVICE_SEED_DEMO };

beforeAll(async () => {
  app = await createTestApp();
  // The database is open; the demo file goes to this folder from now on.
  process.env.SERVICE_DATA_DIR = folder;
  delete process.env.SERVICE_SEED_DEMO;
  lines = captureLogLines();
});

afterAll(() => {
  for (const [k, v] of [
    ["SERVICE_ENV", saved.env],
    ["SERVICE_DATA_DIR", saved.dir],
    ["SERVICE_SEED_DEMO", saved.seed],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  rmSync(folder, { recursive: true, force: true });
});

describe("first-run demo workspace", () => {
  it("is not created with SERVICE_ENV=production", async () => {
    process.env.SERVICE_ENV = "production";
    expect(await seedDemoOnFirstRun(app.db, { terminal: false })).toBeNull();
    expect(await app.db.workspace.count()).toBe(0);
    delete process.env.SERVICE_ENV;
  });

  it("without a terminal writes the key to a 0600 file whose path is logged, and never logs the key", async () => {
    const r = await seedDemoOnFirstRun(app.db, { terminal: false });
    const file = path.join(folder, "demo-credentials.txt");
    expect(r).toEqual({ workspaceId: expect.stringMatching(/^ws_/), shownIn: file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = /API key:\s+(\S+)/.exec(readFileSync(file, "utf8"))![1];
    expect(key).toMatch(/^svc_/);
    const records = lines.map((l) => JSON.parse(l));
    expect(records.some((x) => x.file === file && x.workspace_id === r!.workspaceId)).toBe(true);
    expect(lines.join("")).not.toContain(key);
    // A second start finds the workspace and creates nothing more.
    expect(await seedDemoOnFirstRun(app.db, { terminal: false })).toBeNull();
  });

  it("keeps the key another database's first run wrote there, and writes its own beside it", async () => {
    // A run on memory:// or on a PostgreSQL database shares the folder (.data, or SERVICE_DATA_DIR) with the embedded
    // database: its first run wrote over the file, and the embedded database's demo key, shown once, was lost.
    const file = path.join(folder, "demo-credentials.txt");
    const before = readFileSync(file, "utf8");
    await app.db.$executeRawUnsafe(`DELETE FROM "Workspace"`);
    const r = await seedDemoOnFirstRun(app.db, { terminal: false });
    expect(readFileSync(file, "utf8")).toBe(before);
    const own = path.join(folder, `demo-credentials-${r!.workspaceId}.txt`);
    expect(r).toEqual({ workspaceId: expect.stringMatching(/^ws_/), shownIn: own });
    expect(statSync(own).mode & 0o777).toBe(0o600);
    expect(readFileSync(own, "utf8")).toContain(`Workspace: ${r!.workspaceId}`);
  });

  it("on a terminal shows a marked notice on stderr, outside the log", async () => {
    await app.db.$executeRawUnsafe(`DELETE FROM "Workspace"`).catch(() => undefined);
    if ((await app.db.workspace.count()) > 0) return expect.fail("could not empty the workspace table");
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((c: string) => (written.push(String(c)), true)) as typeof process.stderr.write;
    lines.length = 0;
    try {
      expect((await seedDemoOnFirstRun(app.db, { terminal: true }))?.shownIn).toBe("terminal");
    } finally {
      process.stderr.write = write;
    }
    const notice = written.join("");
    expect(notice).toContain("DEMO CREDENTIALS (not part of the log)");
    const key = /API key:\s+(\S+)/.exec(notice)![1];
    expect(lines.join("")).not.toContain(key);
    expect(lines.length).toBeGreaterThan(0);
  });

  it("creates nothing when the key's file cannot be written, and says what to do", async () => {
    // The file was written after the workspace's transaction: on a data folder that cannot be written the workspace
    // was committed, the write threw, and the next start found a workspace and seeded nothing: its key was never
    // shown to anyone. A folder whose parent is a file cannot be written, whoever runs the test (root included).
    await app.db.$executeRawUnsafe(`DELETE FROM "Workspace"`);
    const blocker = path.join(folder, "a-file");
    writeFileSync(blocker, "");
    const unwritable = path.join(blocker, "data");
    process.env.SERVICE_DATA_DIR = unwritable;
    try {
      await expect(seedDemoOnFirstRun(app.db, { terminal: false })).rejects.toThrow(
        `the demo workspace's API key cannot be written to ${path.join(unwritable, "demo-credentials.txt")} ` +
          `(ENOTDIR), so no demo workspace was created: make ${unwritable} writable (or set SERVICE_DATA_DIR to a ` +
          "writable folder), or set SERVICE_SEED_DEMO=0 to start without one.",
      );
      expect([await app.db.workspace.count(), await app.db.member.count(), await app.db.apiKey.count()]).toEqual([
        0, 0, 0,
      ]);
    } finally {
      process.env.SERVICE_DATA_DIR = folder;
      rmSync(blocker);
    }
    // Once the folder can be written, the next start seeds and shows the key.
    const own = mkdtempSync(path.join(tmpdir(), "svc-demo-writable-"));
    process.env.SERVICE_DATA_DIR = own;
    try {
      const r = await seedDemoOnFirstRun(app.db, { terminal: false });
      expect(r?.shownIn).toBe(path.join(own, "demo-credentials.txt"));
      const key = /API key:\s+(\S+)/.exec(readFileSync(r!.shownIn, "utf8"))![1];
      expect(await app.db.apiKey.count({ where: { workspaceId: r!.workspaceId, status: "active" } })).toBe(1);
      expect(key).toMatch(/^svc_/);
    } finally {
      process.env.SERVICE_DATA_DIR = folder;
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("leaves nothing half-written when the key cannot be written, so the next attempt seeds", async () => {
    // Start-up runs the seed again when the database drops during it (server/startup/database-wait.ts). Written one
    // after the other, a failure between the workspace and its key left a workspace without one: the next attempt saw
    // a workspace and seeded nothing, with no key and no credentials shown. Here the key's insert fails for real.
    await app.db.$executeRawUnsafe(`DELETE FROM "Workspace"`);
    await app.db.$executeRawUnsafe(`ALTER TABLE "ApiKey" ADD CONSTRAINT "no_key_now" CHECK (false) NOT VALID`);
    try {
      await expect(seedDemoOnFirstRun(app.db, { terminal: false })).rejects.toThrow(/no_key_now|constraint/i);
      expect([await app.db.workspace.count(), await app.db.member.count(), await app.db.subscription.count()]).toEqual([
        0, 0, 0,
      ]);
    } finally {
      await app.db.$executeRawUnsafe(`ALTER TABLE "ApiKey" DROP CONSTRAINT "no_key_now"`);
    }
    const r = await seedDemoOnFirstRun(app.db, { terminal: false });
    expect(r?.workspaceId).toMatch(/^ws_/);
    expect(await app.db.apiKey.count({ where: { workspaceId: r!.workspaceId, status: "active" } })).toBe(1);
    expect(readFileSync(r!.shownIn, "utf8")).toContain(`Workspace: ${r!.workspaceId}`);
  });
});

// What start-up leaves for the moment the port listens (scripts/after-listening.mjs, run from scripts/server.mjs's
// listening callback): with PORT=0 the demo credentials wait for the port, and their file could not be written (a
// read-only data folder) threw out of the server's "listening" event, an uncaught exception that ended the process.
// A step that fails is logged as one JSON line, and the steps after it still run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { afterListeningSteps } from "../../scripts/after-listening.mjs";
import { seedDemoOnFirstRun } from "../../server/startup/demo";
import { captureLogLines } from "../log-lines";
import { createTestApp, type TestApp } from "../harness";

type Hook = { __serviceAfterListening?: (fn: (port: number) => void) => void };
let app: TestApp;
let lines: string[] = [];
const folder = mkdtempSync(path.join(tmpdir(), "svc-after-listening-"));
const saved = {
  dir: process.env.SERVICE_DATA_DIR,
  seed: process.env.SERVICE_SEED_DEMO,
  port: process.env.PORT,
  publicUrl: process.env.SERVICE_PUBLIC_URL,
};

beforeAll(async () => {
  app = await createTestApp();
  lines = captureLogLines();
});

afterAll(() => {
  delete (globalThis as Hook).__serviceAfterListening;
  for (const [k, v] of [
    ["SERVICE_DATA_DIR", saved.dir],
    ["SERVICE_SEED_DEMO", saved.seed],
    ["PORT", saved.port],
    ["SERVICE_PUBLIC_URL", saved.publicUrl],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  rmSync(folder, { recursive: true, force: true });
});

const errors = () => lines.map((l) => JSON.parse(l)).filter((r) => r.level === 50);

describe("the steps run once the port listens", () => {
  it("a step that throws or rejects is logged, and the others still run, before and after listening", async () => {
    lines.length = 0;
    const steps = afterListeningSteps();
    const ran: number[] = [];
    steps.register(() => {
      throw new Error("first step broke");
    });
    steps.register((port) => void ran.push(port));
    steps.register(() => Promise.reject(new Error("second step broke")));
    expect(() => steps.listening(4321)).not.toThrow();
    // Registered once listening: runs at once, with the same protection.
    expect(() =>
      steps.register(() => {
        throw new Error("late step broke");
      }),
    ).not.toThrow();
    steps.register((port) => void ran.push(port + 1));
    await new Promise((r) => setTimeout(r, 10));
    expect(ran).toEqual([4321, 4322]);
    const failed = errors();
    expect(failed.map((r) => r.err.message).sort()).toEqual([
      "first step broke",
      "late step broke",
      "second step broke",
    ]);
    for (const r of failed) {
      expect(r.msg).toBe("a start-up step after the port opened failed; the server goes on");
      expect(r.port).toBe(4321);
    }
  });

  it("with PORT=0, the demo key's file is written before the workspace is committed, its addresses once listening", async () => {
    lines.length = 0;
    process.env.SERVICE_DATA_DIR = folder;
    process.env.PORT = "0";
    delete process.env.SERVICE_SEED_DEMO;
    delete process.env.SERVICE_PUBLIC_URL;
    const steps = afterListeningSteps();
    (globalThis as Hook).__serviceAfterListening = steps.register;
    await app.db.$executeRawUnsafe(`DELETE FROM "Workspace"`);
    const seeded = await seedDemoOnFirstRun(app.db, { terminal: false });
    const file = path.join(folder, "demo-credentials.txt");
    expect(seeded?.shownIn).toBe(file);
    const before = readFileSync(file, "utf8");
    expect(before).toMatch(/API key: +svc_/);
    expect(before).toContain("http://localhost:<port>/dashboard");
    expect(() => steps.listening(4321)).not.toThrow();
    const after = readFileSync(file, "utf8");
    expect(after).toContain("  Dashboard: http://localhost:4321/dashboard");
    expect(after).not.toContain("<port>");
    expect(/API key: +(\S+)/.exec(after)![1]).toBe(/API key: +(\S+)/.exec(before)![1]);
    expect(errors()).toEqual([]);
  });

  it("with PORT=0 and a data folder that cannot be written, creates nothing (it used to leave an unseen key)", async () => {
    lines.length = 0;
    // A data folder that cannot be created (its parent is a file): as a read-only one, whoever runs the test.
    const blocker = path.join(folder, "a-file");
    writeFileSync(blocker, "");
    process.env.SERVICE_DATA_DIR = path.join(blocker, "data");
    process.env.PORT = "0";
    delete process.env.SERVICE_SEED_DEMO;
    delete process.env.SERVICE_PUBLIC_URL;
    const steps = afterListeningSteps();
    (globalThis as Hook).__serviceAfterListening = steps.register;
    await app.db.$executeRawUnsafe(`DELETE FROM "Workspace"`);
    await expect(seedDemoOnFirstRun(app.db, { terminal: false })).rejects.toThrow(/ENOTDIR.*no demo workspace/);
    expect(await app.db.workspace.count()).toBe(0);
    expect(() => steps.listening(4321)).not.toThrow();
    expect(errors()).toEqual([]);
  });
});

// Backup and restore of the embedded database (issue 22, item 15): `npm run admin -- backup --to DIR` copies a
// consistent snapshot while the server runs and answers lookups; the copy, put in a fresh data folder with a stale
// server.pid (naming a live process that is not a server), opens with the admin CLI at once and starts a server that
// knows the workspace and its key.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOnce, startServerProcess, waitUntilReady, type RunningServer } from "./server-process";

// The embedded store's backup: every process this file starts uses it, whatever DATABASE_URL says.
delete process.env.DATABASE_URL;

const root = mkdtempSync(path.join(tmpdir(), "svc-backup-"));
const live = path.join(root, "live");
const snapshot = path.join(root, "snapshot");
const restored = path.join(root, "restored");
const running: RunningServer[] = [];

async function admin(dataDir: string, ...argv: string[]): Promise<any> {
  const env = { ...process.env, SERVICE_DATA_DIR: dataDir } as Record<string, string | undefined>;
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  // One process with tsx's loader, as the e2e helpers run the CLI (tsx's own launcher would start a second one).
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "server/admin/cli.ts", ...argv, "--json"],
    { env: env as NodeJS.ProcessEnv, timeout: 120_000 },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!);
}

beforeAll(() => buildOnce(), 600_000);

afterAll(() => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

describe("embedded database backup and restore", () => {
  it("backs up while the server runs and restores into a fresh folder with a stale server.pid", async () => {
    const env = { DATABASE_URL: "", SERVICE_SHUTDOWN_DELAY_MS: "0" };
    const first = await startServerProcess({ ...env, SERVICE_DATA_DIR: live });
    running.push(first);
    await waitUntilReady(first.base, 180_000);
    const ws = await admin(live, "workspace", "create", "--name", "Backed up", "--plan", "suite_business");
    const lookup = (base: string, ip: string) =>
      fetch(`${base}/v1/ip/${ip}/geo`, { headers: { Authorization: `Bearer ${ws.apiKey}` } }).then((r) => r.status);
    // The process tests start with SERVICE_WARM_DATA=0 (./server-process.ts): ready before the shipped data is loaded,
    // which /readyz says, and the first lookup loads what it needs and answers from it.
    const ready = await (await fetch(`${first.base}/readyz`)).json();
    expect(ready.checks.shipped_data).toEqual({ status: "ok", detail: "loads at first use (SERVICE_WARM_DATA=0)" });
    const geo = await fetch(`${first.base}/v1/ip/8.8.8.8/geo`, { headers: { Authorization: `Bearer ${ws.apiKey}` } });
    expect(geo.status).toBe(200);
    expect((await geo.json()).country.code).toBe("US");

    // The backup runs while lookups keep writing.
    const traffic = Promise.all(["1.1.1.1", "9.9.9.9", "8.8.4.4", "1.0.0.1"].map((ip) => lookup(first.base, ip)));
    const backup = await admin(live, "backup", "--to", snapshot);
    expect(await traffic).toEqual([200, 200, 200, 200]);
    expect(backup.files).toContain("pglite");
    expect(readdirSync(snapshot).sort()).toEqual(expect.arrayContaining(["backup.json", "pglite"]));
    expect(existsSync(path.join(snapshot, "server.pid"))).toBe(false);
    expect(existsSync(path.join(snapshot, "admin.sock"))).toBe(false);
    // A second backup never overwrites the first.
    await expect(admin(live, "backup", "--to", snapshot)).rejects.toThrow(/not empty/);

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    // Restore: copy the folder; a server.pid left behind names a live process that is not a server (this one).
    cpSync(snapshot, restored, { recursive: true });
    writeFileSync(path.join(restored, "server.pid"), String(process.pid));
    const started = Date.now();
    const usage = await admin(restored, "usage", "--workspace", ws.workspaceId);
    expect(Date.now() - started).toBeLessThan(45_000); // a live pid used to make the CLI wait 60 s, then fail
    expect(usage.used).toBeGreaterThanOrEqual(1);

    const second = await startServerProcess({ ...env, SERVICE_DATA_DIR: restored });
    running.push(second);
    await waitUntilReady(second.base, 180_000);
    expect(await lookup(second.base, "8.8.8.8")).toBe(200);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 400_000); // two server lives and the admin CLI, each step with its own bound above
});

// `admin backup --to /proc/snap` (a folder the file system refuses to create, with ENOENT although its parent
// exists) never ended: Node's recursive mkdir retries such a path forever, on the event loop, so a running server
// that took the command through its admin channel spun at full CPU and answered nothing more, /readyz included
// (found walking README's "Backup and restore" from a fresh clone). The command says it cannot create the folder and
// exits 1, in well under the time the test allows.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const dir = mkdtempSync(path.join(os.tmpdir(), "svc-backup-target-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], killAfterMs: number, dataDir = path.join(dir, "data")) {
  return new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "server/admin/cli.ts"), ...args], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "test", DATABASE_URL: "", SERVICE_DATA_DIR: dataDir },
      stdio: ["ignore", "ignore", "pipe"],
      timeout: killAfterMs,
      killSignal: "SIGKILL",
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code, signal) => resolve({ code, signal, stderr: stderr.trim() }));
  });
}

describe("admin backup into a folder the file system will not create", () => {
  it("says it cannot create it and exits 1 instead of spinning forever", async () => {
    const to = `/proc/svc-backup-${process.pid}/snap`;
    const r = await cli(["backup", "--to", to], 60_000);
    expect(r.signal, "the command was still running after 60 s").toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error: cannot create ${to}: `));
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 90_000);
});

describe("a data folder the file system will not create", () => {
  it("stops the admin command with one line naming the folder instead of spinning forever", async () => {
    // SERVICE_DATA_DIR=/proc/x: `npm start` and every admin command hung at full CPU on the same recursive mkdir.
    const data = `/proc/svc-data-${process.pid}/data`;
    const r = await cli(["usage", "--workspace", "ws_missing"], 60_000, data);
    expect(r.signal, "the command was still running after 60 s").toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`/proc/svc-data-${process.pid}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 90_000);
});

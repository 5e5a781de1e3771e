// The admin CLI through a running server's admin channel when the server's database cannot be used: the channel used
// to answer in the API's words ("The service's database is unavailable; retry after the time in Retry-After."), which
// name a header a command line never sees and not what failed. It says why in the operator's words, as the CLI's
// direct path does (test/foundation/admin-cli.test.ts).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSocketPath, listenAdminChannel, sendAdminCommand } from "../../server/admin/channel";
import { answerAdminCommand } from "../../server/admin/commands";
import { closeDb } from "../../server/db/client";
import { createTestApp } from "../harness";

const root = path.resolve(__dirname, "../..");
const dir = mkdtempSync(path.join(os.tmpdir(), "svc-chan-down-"));
let socket = "";
let close = () => {};

beforeAll(async () => {
  const app = await createTestApp();
  const saved = process.env.SERVICE_DATA_DIR;
  process.env.SERVICE_DATA_DIR = dir;
  socket = adminSocketPath();
  // What the server's start-up opens (server/startup/index.ts), on this file's database.
  const server = await listenAdminChannel((argv) => answerAdminCommand(app.db, argv));
  if (saved === undefined) delete process.env.SERVICE_DATA_DIR;
  else process.env.SERVICE_DATA_DIR = saved;
  close = () => server?.close();
  // The database goes away under the running channel.
  await closeDb();
});
afterAll(() => {
  close();
  rmSync(dir, { recursive: true, force: true });
});

describe("admin channel when the server's database cannot be used", () => {
  it("says why in operator words, not the API's 'retry after the time in Retry-After'", async () => {
    const { status, body } = await sendAdminCommand(["usage", "--workspace", "ws_x", "--json"], socket);
    expect(status).toBe(500);
    expect(body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(body.error.message).toMatch(/^cannot use the database: \S/);
    expect(body.error.message).not.toContain("Retry-After");

    // The CLI's process prints it as it prints its own.
    const cli = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", path.join(root, "server/admin/cli.ts"), "usage", "--workspace", "ws_x"],
        {
          cwd: root,
          env: { ...process.env, NODE_ENV: "test", DATABASE_URL: "", SERVICE_DATA_DIR: dir },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("exit", (code) => resolve({ code, stdout, stderr: stderr.trim() }));
    });
    expect({ code: cli.code, stdout: cli.stdout }).toEqual({ code: 1, stdout: "" });
    expect(cli.stderr).toBe(`error: ${body.error.message}`);
  }, 90_000);
});

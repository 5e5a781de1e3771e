// The admin CLI with a setting it cannot use: it printed a stack trace and "error: Internal error." for an
// SERVICE_ENCRYPTION_KEY that is not 32 bytes of base64 (found walking README's "Secrets at rest" from a fresh clone).
// It says what is wrong in one line naming the variable, as the server's start-up does, and exits 1.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runProcess } from "../run-process";

const root = path.resolve(__dirname, "../..");
const dir = mkdtempSync(path.join(os.tmpdir(), "svc-cli-settings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string>) {
  return runProcess([process.execPath, "--import", "tsx", path.join(root, "server/admin/cli.ts"), ...args], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "test", DATABASE_URL: "", SERVICE_DATA_DIR: dir, ...env },
  });
}

describe("admin CLI with an encryption key it cannot use", () => {
  it("says so in one line naming the variable, without a stack, and exits 1", async () => {
    const says =
      "SERVICE_ENCRYPTION_KEY must be base64 of 32 random bytes (e.g. `openssl rand -base64 32`); the value given decodes to 3 bytes.";
    const text = await cli(["secrets", "status"], { SERVICE_ENCRYPTION_KEY: "short" });
    expect(text).toEqual({ code: 1, stdout: "", stderr: `error: ${says}` });
    const json = await cli(["secrets", "status", "--json"], { SERVICE_ENCRYPTION_KEY: "short" });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toEqual({ error: { code: "INVALID_CONFIGURATION", message: says } });
  }, 120_000);
});

describe("admin CLI run through npm from a subfolder", () => {
  it("resolves a relative --to against the folder it was run from (npm's INIT_CWD), not the project root", async () => {
    // npm run starts the command in the project's root: `cd docs && npm run admin -- backup --to snap` wrote the
    // backup to <root>/snap (found walking README's backup section from a fresh clone).
    const from = mkdtempSync(path.join(os.tmpdir(), "svc-cli-from-"));
    try {
      const r = await cli(["backup", "--to", "snap"], { INIT_CWD: from });
      expect(r.code, r.stderr).toBe(0);
      expect(existsSync(path.join(from, "snap", "pglite"))).toBe(true);
      expect(existsSync(path.join(root, "snap"))).toBe(false);
    } finally {
      rmSync(from, { recursive: true, force: true });
    }
  }, 120_000);
});

// The browser step of `npm run test:e2e` (scripts/browser.mjs): finds a Chromium, or stops at once with one line
// saying what to run. Installing is turned off here (E2E_BROWSER_INSTALL=0) so the test never changes the machine.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// Nothing here, nor any process this file starts, opens a database: the same run whatever DATABASE_URL says, so CI
// runs it once, not again on PostgreSQL (.ci/store-tests.mjs).
delete process.env.DATABASE_URL;

const dir = mkdtempSync(path.join(tmpdir(), "browser-setup-"));
const fakeChromium = path.join(dir, "chromium");
writeFileSync(fakeChromium, "#!/bin/sh\nexit 0\n");
chmodSync(fakeChromium, 0o755);
const missing = path.join(dir, "no-such-chromium");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function browserStep(env: Record<string, string>) {
  const clean = { ...process.env };
  delete clean.CHROMIUM_PATH;
  delete clean.E2E_BROWSER_CANDIDATES;
  const r = spawnSync(process.execPath, ["scripts/browser.mjs"], {
    env: { ...clean, E2E_BROWSER_INSTALL: "0", ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout.trim(), stderrLines: r.stderr.trim().split("\n").filter(Boolean) };
}

describe("e2e browser step", () => {
  it("uses CHROMIUM_PATH when it names an executable", () => {
    expect(browserStep({ CHROMIUM_PATH: fakeChromium })).toEqual({
      status: 0,
      stdout: `e2e browser: ${fakeChromium}`,
      stderrLines: [],
    });
  });

  it("stops with one line when CHROMIUM_PATH names a missing file", () => {
    expect(browserStep({ CHROMIUM_PATH: missing })).toEqual({
      status: 1,
      stdout: "",
      stderrLines: [
        `e2e browser: CHROMIUM_PATH=${missing} is not an executable file: point it at Chromium or unset it.`,
      ],
    });
  });

  it("takes the first installed browser among the known places", () => {
    expect(browserStep({ E2E_BROWSER_CANDIDATES: `${missing}:${fakeChromium}` })).toMatchObject({
      status: 0,
      stdout: `e2e browser: ${fakeChromium}`,
    });
  });

  it("with no browser anywhere and installing off, stops at once with one line saying what to run", () => {
    const started = Date.now();
    const r = browserStep({ E2E_BROWSER_CANDIDATES: missing });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r).toEqual({
      status: 1,
      stdout: "",
      stderrLines: [
        "e2e browser: no Chromium found (installing is off: E2E_BROWSER_INSTALL=0): run `apt-get install -y chromium` (as root) or `npx playwright install chromium`, or set CHROMIUM_PATH to a Chromium executable.",
      ],
    });
  });

  it("keeps `npm run test:e2e` from starting Playwright when the step fails", () => {
    const clean = { ...process.env, CHROMIUM_PATH: missing, E2E_BROWSER_INSTALL: "0" };
    const r = spawnSync("npm", ["run", "-s", "test:e2e"], { env: clean, encoding: "utf8", timeout: 60_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`CHROMIUM_PATH=${missing} is not an executable file`);
    expect(r.stdout).not.toContain("Running");
  });
});

// End-to-end tests in Debian's Chromium against the production server (e2e/serve.mjs: build if needed, fresh
// database). Screenshots of every page are attached to each test's results under test-results/.
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./scripts/browser.mjs";

const port = process.env.E2E_PORT ?? "3217";
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Every journey signs in as a new user with a workspace of its own, so spec files run on two workers against
  // the one server (the tests of one file stay in order). E2E_WORKERS=1 runs them one at a time.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  reporter: [["list"], ["html", { open: "never", outputFolder: process.env.E2E_REPORT_DIR ?? "playwright-report" }]],
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  use: {
    baseURL,
    // A trace of every test is kept when it fails: its actions with their timings and errors, the console, the
    // network and the sources. Without the screencast of the page (screenshots: false: those frames cost about a
    // fifth of the run's CPU on a 2-core machine) nor a DOM snapshot around every action (snapshots: false: about a
    // tenth of the journeys' CPU, 7 spec files 85-97 s of CPU with them, 78-88 s without): a failing test keeps its
    // screenshot (screenshot: "only-on-failure") and the page's accessibility tree in its error context.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: false },
    screenshot: "only-on-failure",
    launchOptions: {
      // CHROMIUM_PATH, else Debian's or Google's Chromium, else Playwright's own (`npm run test:e2e` installs one first).
      executablePath: findChromium()?.path ?? "/usr/bin/chromium",
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: "node e2e/serve.mjs",
    url: `${baseURL}/v1/openapi.json`,
    env: { E2E_PORT: port },
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});

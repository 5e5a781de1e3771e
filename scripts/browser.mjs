// The Chromium that the end-to-end tests drive. findChromium() only looks (playwright.config.ts uses it);
// `node scripts/browser.mjs` (the first half of `npm run test:e2e`) looks, installs one when none is there, or
// stops at once with one line saying what to run.
//   CHROMIUM_PATH            use exactly this executable (an error when it does not exist)
//   E2E_BROWSER_INSTALL=0    never install; just report
//   E2E_BROWSER_CANDIDATES   where to look, colon-separated (default: Debian's, Google's, then Playwright's own)
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const SYSTEM = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/opt/google/chrome/chrome",
];

function executable(p) {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function playwrightOwn() {
  try {
    const { chromium } = createRequire(import.meta.url)("playwright-core");
    return chromium.executablePath();
  } catch {
    return null;
  }
}

function candidates() {
  if (process.env.E2E_BROWSER_CANDIDATES !== undefined)
    return process.env.E2E_BROWSER_CANDIDATES.split(":").filter(Boolean);
  const own = playwrightOwn();
  return own ? [...SYSTEM, own] : SYSTEM;
}

/** The browser to use, or { error } when CHROMIUM_PATH names a missing file, or null when none is found. */
/** The flags every Chromium of ours starts with (tests and benchmarks): no sandbox as root, no GPU, nothing online. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

export function findChromium() {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen)
    return executable(chosen)
      ? { path: chosen }
      : { error: `CHROMIUM_PATH=${chosen} is not an executable file: point it at Chromium or unset it.` };
  for (const c of candidates()) if (executable(c)) return { path: c };
  return null;
}

function run(cmd, args) {
  console.error(`e2e browser: running ${cmd} ${args.join(" ")}`);
  return (
    spawnSync(cmd, args, {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      timeout: 600_000,
    }).status === 0
  );
}

function hasCommand(name) {
  return spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0;
}

async function install() {
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (root && hasCommand("apt-get")) {
    if (
      run("apt-get", ["install", "-y", "-qq", "chromium"]) ||
      (run("apt-get", ["update", "-qq"]) && run("apt-get", ["install", "-y", "-qq", "chromium"]))
    )
      return true;
  }
  const bin = fileURLToPath(new URL("../node_modules/.bin/playwright", import.meta.url));
  return executable(bin) && run(bin, ["install", "chromium"]);
}

const HOW =
  "run `apt-get install -y chromium` (as root) or `npx playwright install chromium`, or set CHROMIUM_PATH to a Chromium executable.";

async function main() {
  let found = findChromium();
  if (found?.error) {
    console.error(`e2e browser: ${found.error}`);
    process.exit(1);
  }
  if (!found && process.env.E2E_BROWSER_INSTALL !== "0") {
    if (await install()) found = findChromium();
  }
  if (!found?.path) {
    console.error(
      `e2e browser: no Chromium found${process.env.E2E_BROWSER_INSTALL === "0" ? " (installing is off: E2E_BROWSER_INSTALL=0)" : " and none could be installed"}: ${HOW}`,
    );
    process.exit(1);
  }
  console.log(`e2e browser: ${found.path}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();

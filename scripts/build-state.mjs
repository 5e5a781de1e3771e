// Whether the production build is older than its sources, and building it when it is. Used by `npm start`
// (scripts/start.mjs) and by the benchmark, so both apply the same rule.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SOURCES = [
  "app",
  "server",
  "public",
  "prisma",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.ts",
  "package.json",
  "package-lock.json",
];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(p, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".") || e.name === "generated") continue;
    newest = Math.max(newest, newestMtime(path.join(p, e.name)));
  }
  return newest;
}

/** @param {string} root @returns {boolean} */
export function buildIsStale(root) {
  const buildId = path.join(root, process.env.SERVICE_NEXT_DIST_DIR || ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  return Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s)))) > statSync(buildId).mtimeMs;
}

/** Runs `next build` when the build is stale; throws when the build fails. @param {string} root */
export function ensureBuild(root) {
  if (!buildIsStale(root)) return false;
  console.log("Building the production server (next build)...");
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const r = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error(`next build failed with exit code ${r.status}`);
  return true;
}

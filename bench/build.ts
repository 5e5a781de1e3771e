// Builds the production server once, before any store starts, with the same staleness rule as scripts/start.mjs
// (so the per-store `node scripts/start.mjs` finds a current build and starts at once).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SOURCES = ["app", "server", "public", "prisma", "instrumentation.ts", "next.config.ts", "package.json", "package-lock.json"];

function newestMtime(p: string): number {
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

export function buildIsStale(root: string): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  return Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s)))) > statSync(buildId).mtimeMs;
}

export function ensureBuild(root: string): void {
  if (!buildIsStale(root)) {
    console.log("Production build is current.");
    return;
  }
  console.log("Building the production server (next build)...");
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const r = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (r.status !== 0) throw new Error(`next build failed with exit code ${r.status}`);
}

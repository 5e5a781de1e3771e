// Whether the production build is older than its sources, and building it when it is. Used by `npm start`
// (scripts/start.mjs) and by the benchmark, so both apply the same rule.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { scriptLogger } from "./log.mjs";

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
  if (!existsSync(buildId) || clientIsStale(root)) return true;
  return Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s)))) > statSync(buildId).mtimeMs;
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * One build at a time per build folder: processes that find the build stale at once (two test files on two
 * workers, a test and the end-to-end server) would otherwise run `next build` into the same folder together, and
 * one of them fails. The lock is a directory (mkdir is atomic) holding its owner's pid; a lock whose owner died is
 * taken over. Whoever waited checks again whether the build is still stale.
 */
function withBuildLock(root, work) {
  const lock = path.join(root, `${process.env.SERVICE_NEXT_DIST_DIR || ".next"}.build-lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      let owner = 0;
      try {
        owner = Number(readFileSync(path.join(lock, "pid"), "utf8"));
      } catch {
        // the owner has not written its pid yet
      }
      const orphaned = owner
        ? !alive(owner)
        : Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 10_000;
      if (orphaned) rmSync(lock, { recursive: true, force: true });
      else sleep(500);
    }
  }
  try {
    writeFileSync(path.join(lock, "pid"), String(process.pid));
    return work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Whether prisma/schema.prisma changed after the Prisma client was generated from it (`npm install` generates it; a
 * `git pull` followed by `npm start` alone would otherwise build the new code against the old client, which reads
 * none of the new columns). @param {string} root @returns {boolean}
 */
export function clientIsStale(root) {
  const schema = statSync(path.join(root, "prisma", "schema.prisma"), { throwIfNoEntry: false });
  if (!schema) return false;
  const generated = statSync(path.join(root, "server", "db", "generated", "client.ts"), { throwIfNoEntry: false });
  return !generated || schema.mtimeMs > generated.mtimeMs;
}

/**
 * Runs `next build` when the build is stale; throws when the build fails. A stale Prisma client is generated again
 * only when `generateClient` is set (`npm start`, the benchmark): anywhere else (a test process, whose neighbours may
 * be loading the client) it is an error that says what to run.
 * @param {string} root @param {{ generateClient?: boolean }} [opts]
 */
export function ensureBuild(root, opts = {}) {
  if (!buildIsStale(root)) return false;
  return withBuildLock(root, () => buildNow(root, opts.generateClient === true));
}

function buildNow(root, generateClient) {
  if (!buildIsStale(root)) return false;
  if (clientIsStale(root)) {
    if (!generateClient)
      throw new Error("the Prisma client is older than prisma/schema.prisma: run `npm run db:generate` first");
    scriptLogger().info("generating the Prisma client: prisma/schema.prisma is newer than it");
    const g = spawnSync(process.execPath, [path.join(root, "scripts", "prisma-generate.mjs")], {
      cwd: root,
      stdio: ["ignore", 2, 2],
    });
    if (g.status !== 0) throw new Error(`prisma generate failed with exit code ${g.status}`);
    // A client that still looks older would make every start generate and build again.
    if (clientIsStale(root)) throw new Error("prisma generate left server/db/generated older than the schema");
  }
  scriptLogger().info("building the production server (next build; its output goes to stderr)");
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const r = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    // stdout stays one JSON record a line (scripts/log.mjs); Next's own build output is text, so it goes to stderr.
    stdio: ["ignore", 2, 2],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error(`next build failed with exit code ${r.status}`);
  return true;
}

// Runs the production server (`node scripts/start.mjs` on the production build) as a child process for the
// shutdown and log tests, on its own port and database, and captures everything it prints.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import path from "node:path";
import { ensureBuild } from "../../scripts/build-state.mjs";

// One key for every server this test process starts: a restarted instance must read what the first one stored.
const ENCRYPTION_KEY = randomBytes(32).toString("base64");

// The same build as `npm start` and the end-to-end step (built once when stale); SERVICE_NEXT_DIST_DIR picks another.
export const DIST_DIR = process.env.SERVICE_NEXT_DIST_DIR || ".next";

export function buildOnce(): void {
  process.env.SERVICE_NEXT_DIST_DIR = DIST_DIR;
  ensureBuild(process.cwd());
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

export interface RunningServer {
  base: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts the production server with `env`. `via: "npm"` runs `npm start` exactly as a container's `CMD npm start`
 * does, so the pid in `child` is npm's own.
 */
export async function startServerProcess(
  env: Record<string, string>,
  opts: { via?: "node" | "npm"; port?: number; group?: boolean } = {},
): Promise<RunningServer> {
  const port = opts.port ?? (await freePort());
  let out = "";
  // Not a declared production deployment (that would need the operator's secrets): start.mjs still runs the
  // production build with NODE_ENV=production.
  const inherited: Record<string, string | undefined> = { ...process.env };
  delete inherited.NODE_ENV;
  delete inherited.SERVICE_ENV;
  const [command, args] =
    opts.via === "npm" ? ["npm", ["start"]] : [process.execPath, [path.join("scripts", "start.mjs")]];
  const child = spawn(command, args, {
    env: {
      ...inherited,
      SERVICE_ENCRYPTION_KEY: ENCRYPTION_KEY,
      SERVICE_NEXT_DIST_DIR: DIST_DIR,
      PORT: String(port),
      HOST: "127.0.0.1",
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      SERVICE_SEED_DEMO: "0",
      LOG_LEVEL: "info",
      // No warm-up of /docs and every dashboard page after the port opens (scripts/warm-pages.mjs, on by default and
      // in the end-to-end server): it is several seconds of CPU per start that these tests do not look at, on a
      // 2-core CI machine whose unit run is CPU-bound. test/operate/warm-pages.test.ts tests it, npm-start keeps it.
      SERVICE_WARM_PAGES: "0",
      // Nor the shipped data's loading at start (geolocation, ASN, IP lists, package names: about 3 s of CPU per start
      // on such a machine): each part loads at its first lookup. npm-start.test.ts keeps the default and checks it.
      SERVICE_WARM_DATA: "0",
      ...env,
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    // npm's own process group, so a failed test can end npm and the server it started together (kill(-pid)); `group`
    // gives `node scripts/start.mjs` one too, as a terminal's job has (a closing terminal signals the whole group).
    detached: opts.via === "npm" || opts.group === true,
  });
  child.stdout!.on("data", (c) => (out += c));
  child.stderr!.on("data", (c) => (out += c));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { base: `http://127.0.0.1:${port}`, child, output: () => out, exited };
}

export async function waitUntilReady(base: string, timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${base} did not become ready`);
}

/** The exit code, or the server stopped with SIGTERM (and "still running") when it did not exit within 90 s. */
export async function exitOrStop(server: RunningServer): Promise<number | null | string> {
  const code = await Promise.race([
    server.exited,
    new Promise<"still running">((r) => setTimeout(() => r("still running"), 90_000)),
  ]);
  if (code === "still running") {
    server.child.kill("SIGTERM");
    await server.exited;
  }
  return code;
}

// The production server (`node scripts/start.mjs`, as `npm start` runs it) on one store, on a free port, plus
// the operator CLI against the same store for provisioning workspaces and giving units back between runs.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { freePort, runToEnd, startChild, waitForHttp, type Child } from "./process";
import type { OpenStore } from "./stores";

export interface RunningService {
  baseUrl: string;
  child: Child;
  /** `npm run admin -- <argv> --json`, parsed. */
  admin(argv: string[]): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

function mergeEnv(...parts: Record<string, string | undefined>[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const part of parts) {
    for (const [k, v] of Object.entries(part)) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
  }
  return env;
}

export async function startService(
  root: string,
  store: OpenStore,
  extraEnv: Record<string, string>,
  cpuProfileDir: string | null,
): Promise<RunningService> {
  const port = await freePort();
  const env = mergeEnv(
    {
      SERVICE_SEED_DEMO: "0",
      NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET || randomBytes(32).toString("base64"),
      NEXT_TELEMETRY_DISABLED: "1",
    },
    extraEnv,
    store.env,
  );
  const serverEnv = mergeEnv(env as Record<string, string | undefined>, {
    PORT: String(port),
    HOST: "127.0.0.1",
  });
  if (cpuProfileDir) {
    const preload = pathToFileURL(path.join(root, "bench", "cpu-profile-preload.mjs")).href;
    serverEnv.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --import=${preload}`.trim();
    serverEnv.BENCH_CPU_PROF_DIR = cpuProfileDir;
  }
  const child = startChild(process.execPath, [path.join(root, "scripts", "start.mjs")], {
    cwd: root,
    env: serverEnv,
    label: `service (${store.name})`,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    // The first request runs the server's start-up (migrations, admin channel); the OpenAPI document is unmetered.
    await waitForHttp(`${baseUrl}/v1/openapi.json`, child, 300_000);
  } catch (err) {
    await child.stop();
    throw err;
  }
  const adminEnv = env;
  return {
    baseUrl,
    child,
    async admin(argv) {
      const out = await runToEnd("npm", ["run", "-s", "admin", "--", ...argv, "--json"], { cwd: root, env: adminEnv });
      const line = out.trim().split("\n").pop() ?? "";
      return JSON.parse(line) as Record<string, unknown>;
    },
    stop: () => child.stop(),
  };
}

async function usedUnits(svc: RunningService, workspaceId: string): Promise<number> {
  return Number((await svc.admin(["usage", "--workspace", workspaceId])).used);
}

/**
 * Waits until the server has finished the requests still in flight when the load stopped (their units are charged
 * after autocannon stops counting), then sets this month's usage back to zero with a negative operator
 * adjustment, so runs never meet the allowance. Returns the units charged since the last give-back.
 */
export async function giveUnitsBack(svc: RunningService, workspaceId: string): Promise<number> {
  let used = await usedUnits(svc, workspaceId);
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 1_000));
    const again = await usedUnits(svc, workspaceId);
    if (again === used) break;
    used = again;
  }
  if (used > 0)
    await svc.admin([
      "usage",
      "adjust",
      "--workspace",
      workspaceId,
      "--units",
      String(-used),
      "--reason",
      "benchmark: give units back",
    ]);
  return used;
}

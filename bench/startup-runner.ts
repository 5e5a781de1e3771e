// Probes during start-up (issue 22, item 11): starts the production server as a newcomer does (`node
// scripts/start.mjs`, a fresh embedded store), sends /healthz and /readyz every 10 ms from the moment the port
// opens until /readyz answers 200 and for 3 s after (the pages warm then), and reports how long each probe took
// and which start-up step /readyz named around the slowest. Prints one JSON line (StartupFigures).
import http from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuild } from "./build";
import { freePort, startChild } from "./process";
import type { StartupFigures } from "./startup";
import { STARTUP_TARGETS } from "./startup";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function probe(port: number, probePath: string): Promise<{ status: number; ms: number; body: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.get({ host: "127.0.0.1", port, path: probePath, agent, timeout: 10_000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body }));
    });
    req.on("error", () => resolve({ status: 0, ms: performance.now() - started, body: "" }));
    req.on("timeout", () => req.destroy());
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function main(): Promise<void> {
  ensureBuild(root);
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "svc-bench-startup-"));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), SERVICE_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const t0 = performance.now();
  const child = startChild(process.execPath, [path.join("scripts", "start.mjs")], { cwd: root, env, label: "server" });
  const timings: { ms: number; atMs: number; step: string }[] = [];
  let portOpenMs: number | null = null;
  let readyMs: number | null = null;
  let step = "";
  try {
    while (performance.now() - t0 < 300_000) {
      if (child.proc.exitCode !== null) throw new Error(`the server exited: ${child.output().slice(-3000)}`);
      const health = await probe(port, "/healthz");
      if (health.status === 0) {
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      portOpenMs ??= performance.now() - t0;
      const ready = await probe(port, "/readyz");
      try {
        const detail = JSON.parse(ready.body)?.checks?.startup?.detail;
        step = typeof detail === "string" ? detail : ready.status === 200 ? "ready" : step;
      } catch {
        // not JSON: keep the last step
      }
      const at = performance.now() - t0;
      timings.push({ ms: health.ms, atMs: at, step }, { ms: ready.ms, atMs: at, step });
      if (ready.status === 200) readyMs ??= at;
      if (readyMs !== null && at - readyMs > 3_000) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    if (portOpenMs === null || readyMs === null) throw new Error(`not ready in time: ${child.output().slice(-3000)}`);
    const sorted = timings.map((t) => t.ms).sort((a, b) => a - b);
    const figures: StartupFigures = {
      store: "pglite",
      portOpenMs,
      readyMs,
      probes: timings.length,
      probeMs: { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1)! },
      over: {
        probeMs: sorted.filter((m) => m > STARTUP_TARGETS.probeMs).length,
        blockMs: sorted.filter((m) => m > STARTUP_TARGETS.blockMs).length,
      },
      slowest: [...timings].sort((a, b) => b.ms - a.ms).slice(0, 5),
    };
    console.log(JSON.stringify(figures));
  } finally {
    agent.destroy();
    await child.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

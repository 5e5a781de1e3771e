// A terminal that closes sends SIGHUP to its job's whole process group (npm start, scripts/start.mjs and the server
// it runs). The server used to die at once, in-flight requests cut and the database left unclosed, while SIGTERM and
// SIGINT drain (scripts/graceful-shutdown.mjs): SIGHUP now drains the same way.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOnce, DIST_DIR, freePort, startServerProcess, waitUntilReady } from "./server-process";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-sighup-"));
beforeAll(() => buildOnce(), 600_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("SIGHUP to the server's process group (its terminal closing)", () => {
  it("drains like SIGTERM: readiness 503 during the delay, shutdown complete, exit 0", async () => {
    const server = await startServerProcess(
      { SERVICE_DATA_DIR: dataDir, DATABASE_URL: "", SERVICE_SHUTDOWN_DELAY_MS: "5000", SERVICE_SCHEDULER: "0" },
      { group: true },
    );
    try {
      await waitUntilReady(server.base);
      process.kill(-server.child.pid!, "SIGHUP");
      expect(await readinessUntilDraining(server.base)).toBe(503);
      expect(await server.exited).toBe(0);
      const records = server
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as { msg: string; signal?: string });
      expect(records.find((r) => r.msg === "shutdown signal received")?.signal).toBe("SIGHUP");
      expect(records.some((r) => r.msg === "shutdown complete")).toBe(true);
    } finally {
      if (server.child.exitCode === null) process.kill(-server.child.pid!, "SIGKILL");
    }
  }, 240_000);
});

describe("npm start in a terminal that closes", () => {
  it("drains and exits, instead of spinning on the error of writing to the closed terminal", async () => {
    // A real terminal: `script` (util-linux) runs the server on a pseudo-terminal and is then killed, which closes the
    // terminal: the kernel sends SIGHUP to the job and every write to it fails with EIO from then on. Each failed write
    // used to be reported as an uncaught error, whose report failed the same way, forever, at full CPU.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const dir = mkdtempSync(path.join(tmpdir(), "svc-sighup-tty-"));
    const inherited: Record<string, string | undefined> = { ...process.env };
    delete inherited.NODE_ENV;
    const terminal = spawn("script", ["-qfec", `${process.execPath} scripts/start.mjs`, "/dev/null"], {
      env: {
        ...inherited,
        SERVICE_NEXT_DIST_DIR: DIST_DIR,
        PORT: String(port),
        HOST: "127.0.0.1",
        SERVICE_DATA_DIR: dir,
        DATABASE_URL: "",
        SERVICE_SEED_DEMO: "0",
        SERVICE_SCHEDULER: "0",
        SERVICE_SHUTDOWN_DELAY_MS: "5000",
        // No warm-up of the pages or the shipped data, as the other process tests (./server-process.ts).
        SERVICE_WARM_PAGES: "0",
        SERVICE_WARM_DATA: "0",
      } as unknown as NodeJS.ProcessEnv,
      stdio: "ignore",
      detached: true,
    });
    let serverPid = 0;
    try {
      await waitUntilReady(base);
      serverPid = Number(readFileSync(path.join(dir, "server.pid"), "utf8"));
      process.kill(-terminal.pid!, "SIGKILL");
      expect(await readinessUntilDraining(base)).toBe(503);
      const until = Date.now() + 30_000;
      while (alive(serverPid) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect(alive(serverPid), "the server still runs 30 s after its terminal closed").toBe(false);
    } finally {
      if (serverPid && alive(serverPid)) process.kill(serverPid, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

/**
 * Polls /readyz after the signal until it stops answering 200: 503 when the server is seen draining, else what ended
 * it (the server gone without a 503, or still 200 after 60 s). Waiting for the state rather than a fixed sleep, a
 * loaded machine cannot make the test look past the delay, or before the signal has arrived.
 */
async function readinessUntilDraining(base: string): Promise<number | string> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const ready = await fetch(`${base}/readyz`).catch((err: Error) => err);
    if (!(ready instanceof Response)) return `no answer: ${String(ready.cause ?? ready)}`;
    if (ready.status !== 200) return ready.status;
    await new Promise((r) => setTimeout(r, 25));
  }
  return "still ready 60 s after the signal";
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

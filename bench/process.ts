// Child processes for the benchmark: free ports, spawning in their own process group (so a server and whatever
// it spawns stop together), waiting for readiness, and stopping by process-group id.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface Child {
  proc: ChildProcess;
  /** Everything the process printed, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

export function startChild(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; label: string },
): Child {
  const proc = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const keep = (chunk: Buffer) => {
    log += chunk.toString();
    if (log.length > 200_000) log = log.slice(-100_000);
  };
  proc.stdout!.on("data", keep);
  proc.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  return {
    proc,
    output: () => log,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const group = -proc.pid!;
      try {
        process.kill(group, "SIGTERM");
      } catch {
        return; // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(group, "SIGKILL");
        } catch {
          // already gone
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `url` until it answers 2xx; fails early when the process exits, or after `timeoutMs`. */
export async function waitForHttp(url: string, child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null)
      throw new Error(
        `process exited with ${child.proc.exitCode} before ${url} answered:\n${child.output().slice(-4000)}`,
      );
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s:\n${child.output().slice(-4000)}`);
}

/** Runs a command to completion and returns its stdout; throws with stderr on a non-zero exit. */
export function runToEnd(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (c: Buffer) => (out += c.toString()));
    proc.stderr.on("data", (c: Buffer) => (err += c.toString()));
    proc.once("error", reject);
    proc.once("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} exited with ${code}: ${err || out}`)),
    );
  });
}

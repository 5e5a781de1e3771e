// The in-process profiling runs' shared parts (bench/assess-profile.ts, bench/door-profile.ts): calls from a number of
// loops in flight for a while, and a V8 sampling profile of such a run with the process's CPU per call.
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Runs `f` from `inFlight` loops for `ms`; the calls made. */
export async function load(ms: number, inFlight: number, f: () => Promise<void>): Promise<number> {
  const end = Date.now() + ms;
  let n = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (Date.now() < end) {
        await f();
        n++;
      }
    }),
  );
  return n;
}

/**
 * A profiler of this process (200 µs samples) writing to BENCH_CPU_PROF_DIR (default bench/results): `profiled` warms
 * `f` up for `warmMs`, then profiles `seconds` of it, and answers the calls made, the CPU milliseconds per call and
 * the profile's file (`<prefix>-<name>-<pid>.cpuprofile`).
 */
export async function profiler(o: { prefix: string; inFlight: number; seconds: number; warmMs: number }) {
  const dir = path.resolve(process.env.BENCH_CPU_PROF_DIR?.trim() || path.join(root, "bench", "results"));
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  return async function profiled(name: string, f: () => Promise<void>) {
    await load(o.warmMs, o.inFlight, f);
    const before = process.cpuUsage();
    await session.post("Profiler.start");
    const n = await load(o.seconds * 1000, o.inFlight, f);
    const { profile } = await session.post("Profiler.stop");
    const cpu = process.cpuUsage(before);
    const file = path.join(dir, `${o.prefix}-${name}-${process.pid}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    return { requests: n, cpuMsPerRequest: Math.round(((cpu.user + cpu.system) / 1000 / n) * 1000) / 1000, file };
  };
}

// The start-up probe benchmark's figures and how they are printed (bench/in-process.ts); the measuring is in
// bench/startup-runner.ts. Targets from issue 22, item 11: from the moment the port is open, /healthz and /readyz
// answer within 100 ms, and loading shipped data never holds a request up for more than 50 ms at a time.
export const STARTUP_IN_PROCESS = "start-up probes: /healthz and /readyz every 10 ms from the port opening to ready";

export const STARTUP_TARGETS = { probeMs: 100, blockMs: 50 };

export interface StartupFigures {
  store: string;
  /** From spawning `node scripts/start.mjs` to the first probe answered. */
  portOpenMs: number;
  /** From spawning to /readyz 200. */
  readyMs: number;
  /** Probes sent between the port opening and /readyz 200 (and for 3 s after, while pages warm). */
  probes: number;
  probeMs: { p50: number; p99: number; max: number };
  /** Probes that took longer than the targets, and the longest ones with the step /readyz named around them. */
  over: { probeMs: number; blockMs: number };
  slowest: { ms: number; atMs: number; step: string }[];
}

export const isStartup = (f: object): f is StartupFigures => "readyMs" in f && "probeMs" in f;

const ms = (n: number) => `${n.toFixed(1)} ms`;

export function printStartup(name: string, f: StartupFigures, loadAverage: { before: number; after: number }): void {
  const met = f.probeMs.max < STARTUP_TARGETS.probeMs;
  console.log(`${name} (${f.store} store)`);
  console.log(
    `  port open after ${(f.portOpenMs / 1000).toFixed(1)} s, ready after ${(f.readyMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `  ${f.probes} probes: p50 ${ms(f.probeMs.p50)}, p99 ${ms(f.probeMs.p99)}, max ${ms(f.probeMs.max)}; ` +
      `${f.over.blockMs} over ${STARTUP_TARGETS.blockMs} ms, ${f.over.probeMs} over ${STARTUP_TARGETS.probeMs} ms ` +
      `(${met ? "target met" : "MISSED"})`,
  );
  for (const s of f.slowest) console.log(`    ${ms(s.ms).padStart(10)} at ${(s.atMs / 1000).toFixed(2)} s: ${s.step}`);
  console.log(`  load avg ${loadAverage.before.toFixed(1)} -> ${loadAverage.after.toFixed(1)}`);
}

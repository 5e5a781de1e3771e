// In-process timing of the npm report for a package with 50 advisories against the local fake package sources:
// no HTTP layer, no database, only getNpmReportOrThrow and its upstream calls. Three states of the caches:
// - cold: upstream cache and remembered OSV records cleared (a package nobody asked about recently);
// - revalidate: upstream cache cleared, OSV records kept (the cache TTL ran out; unchanged advisories, known by
//   id and `modified`, are not fetched again);
// - warm: everything cached (a repeat within SERVICE_PACKAGE_CACHE_TTL_SECONDS).
// Prints one JSON line. Run by bench/in-process.ts with the fake's SERVICE_* variables set.
import { performance } from "node:perf_hooks";
import { clearUpstreamCache, resetUpstreamCalls, upstreamCallCounts } from "../server/providers/packages/http";
import { clearOsvRecords } from "../server/providers/packages/osv";
import { getNpmReportOrThrow } from "../server/vulnerabilities";

export type Mode = "cold" | "revalidate" | "warm";

export interface ModeFigures {
  mode: Mode;
  reports: number;
  msPerReport: { mean: number; p50: number; p95: number; min: number; max: number };
  /** Upstream calls per report, by source (cache hits are not calls). */
  upstreamCallsPerReport: Record<string, number>;
  upstreamCallsPerReportTotal: number;
}

export interface RunnerOutput {
  package: string;
  advisories: number;
  /** The very first report of the process: module loading and JIT on top of a cold report. */
  firstReportMs: number;
  modes: ModeFigures[];
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function prepareCaches(mode: Mode): void {
  if (mode === "warm") return;
  clearUpstreamCache();
  if (mode === "cold") clearOsvRecords();
}

async function runMode(name: string, mode: Mode, iterations: number): Promise<ModeFigures> {
  // One untimed report in this mode first, so every timed one starts from the same state.
  prepareCaches(mode);
  await getNpmReportOrThrow({ name });
  const times: number[] = [];
  const calls: Record<string, number> = {};
  for (let i = 0; i < iterations; i++) {
    prepareCaches(mode);
    resetUpstreamCalls();
    const t0 = performance.now();
    await getNpmReportOrThrow({ name });
    times.push(performance.now() - t0);
    for (const [source, n] of Object.entries(upstreamCallCounts())) calls[source] = (calls[source] ?? 0) + n;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const perReport = Object.fromEntries(Object.entries(calls).map(([s, n]) => [s, round(n / iterations)]));
  return {
    mode,
    reports: iterations,
    msPerReport: {
      mean: round(times.reduce((a, b) => a + b, 0) / times.length),
      p50: round(quantile(sorted, 0.5)),
      p95: round(quantile(sorted, 0.95)),
      min: round(sorted[0]!),
      max: round(sorted[sorted.length - 1]!),
    },
    upstreamCallsPerReport: perReport,
    upstreamCallsPerReportTotal: round(Object.values(calls).reduce((a, b) => a + b, 0) / iterations),
  };
}

async function main(): Promise<void> {
  const name = process.argv[2] ?? "many-vulns";
  const iterations = Number(process.argv[3] ?? "20");
  const t0 = performance.now();
  const first = await getNpmReportOrThrow({ name });
  const firstReportMs = round(performance.now() - t0);
  const modes: ModeFigures[] = [];
  for (const mode of ["cold", "revalidate", "warm"] as const)
    modes.push(await runMode(name, mode, mode === "warm" ? iterations * 10 : iterations));
  const out: RunnerOutput = { package: name, advisories: first.advisories.length, firstReportMs, modes };
  console.log(JSON.stringify(out));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);

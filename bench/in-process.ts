// Benchmarks that time a domain function in its own process instead of loading a server: the npm report with
// 50 advisories, cold, revalidating and warm, with the upstream calls each report made (bench/npm-report-runner.ts);
// the dependency scan of a 1,000-package lockfile cold and warm (bench/lockfile-runner.ts); and the others below.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BulkFigures } from "./bulk-runner";
import {
  isLockfileScan,
  LOCKFILE_IN_PROCESS,
  lockfileIterations,
  printLockfileScan,
  type LockfileScanFigures,
} from "./lockfile";
import { isPages, PAGES_IN_PROCESS, printPages, type PageFigures } from "./pages";
import type { RunnerOutput } from "./npm-report-runner";
import type { RulesFigures } from "./rules-runner";
import type { ScanFigures } from "./scans-runner";
import { isStartup, printStartup, STARTUP_IN_PROCESS, type StartupFigures } from "./startup";
import { runToEnd } from "./process";
import type { Prepared } from "./scenarios";
import { MANY_ADVISORIES_PACKAGE } from "./scenarios";
import { fakePackageSources } from "./upstreams";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export interface InProcessBench {
  name: string;
  prepare?: () => Promise<Prepared>;
  /** Runs the bench with the prepared environment and returns its figures. */
  run(env: Record<string, string>): Promise<InProcessFigures>;
}

/** What bench/privacy-runner.ts prints. */
export interface PrivacyFigures {
  ranges: number;
  intervals: number;
  lists: number;
  buildMs: { first: number; median: number };
  heapMiB: number;
  usPerAddress: Record<string, number>;
  usPerLookup: { shipped: number; fourTimesTheLists: number };
}

export type InProcessFigures =
  | RunnerOutput
  | PrivacyFigures
  | BulkFigures
  | RulesFigures
  | ScanFigures
  | PageFigures
  | StartupFigures
  | LockfileScanFigures;

export interface InProcessResult {
  name: string;
  status: "measured" | "failed";
  reason: string | null;
  figures: InProcessFigures | null;
  loadAverage: { before: number; after: number };
}

export const NPM_IN_PROCESS = "npm report in-process: getNpmReportOrThrow (50 advisories)";
export const RULES_IN_PROCESS =
  "rules in-process: backtest over 100000 stored assessments and the assessment rate with 50 expression rules";
export const BULK_IN_PROCESS = "bulk jobs in-process: 100-target IP and DNS jobs from POST /v1/jobs to the last result";
export const SCANS_IN_PROCESS =
  "website scans in-process: POST /v1/scans end to end against the local A+ and F fake sites";
export const PRIVACY_IN_PROCESS = "privacy classification in-process: one interval index over every evidence list";

/** Runs a bench/*-runner.ts in its own process and returns the last JSON line it printed. */
async function runRunner<T>(file: string, args: string[], env: Record<string, string>): Promise<T> {
  const tsxCli = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
  const out = await runToEnd(process.execPath, [tsxCli, path.join("bench", file), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  // The result is the last JSON line that is not one of the service's own log lines (a runner's service may log after
  // it, e.g. a scheduled feed refresh failing offline; reading that line as the figures crashed the printout).
  const line = out
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .filter((l) => !/^\{"level":\d+,"time":/.test(l))
    .pop();
  if (!line) throw new Error(`the runner printed no result: ${out.slice(-1000)}`);
  return JSON.parse(line) as T;
}

/** BENCH_NPM_ITERATIONS: timed reports per cache state (warm runs ten times as many); default 30. */
function iterations(): number {
  const n = Number(process.env.BENCH_NPM_ITERATIONS?.trim() || "30");
  if (!Number.isInteger(n) || n <= 0) throw new Error(`BENCH_NPM_ITERATIONS must be a positive whole number`);
  return n;
}

export const IN_PROCESS: InProcessBench[] = [
  {
    name: NPM_IN_PROCESS,
    prepare: fakePackageSources,
    run: (env) => runRunner<RunnerOutput>("npm-report-runner.ts", [MANY_ADVISORIES_PACKAGE, String(iterations())], env),
  },
  {
    name: PRIVACY_IN_PROCESS,
    run: (env) => runRunner<PrivacyFigures>("privacy-runner.ts", [], env),
  },
  {
    name: RULES_IN_PROCESS,
    run: (env) => runRunner<RulesFigures>("rules-runner.ts", [], env),
  },
  {
    name: BULK_IN_PROCESS,
    run: (env) => runRunner<BulkFigures>("bulk-runner.ts", [], env),
  },
  {
    name: SCANS_IN_PROCESS,
    run: (env) => runRunner<ScanFigures>("scans-runner.ts", [], env),
  },
  {
    name: LOCKFILE_IN_PROCESS,
    run: (env) => {
      lockfileIterations(); // a wrong setting fails here, before the runner starts
      return runRunner<LockfileScanFigures>("lockfile-runner.ts", [], env);
    },
  },
  {
    name: PAGES_IN_PROCESS,
    run: (env) => runRunner<PageFigures>("pages-runner.ts", [], env),
  },
  {
    name: STARTUP_IN_PROCESS,
    run: (env) => runRunner<StartupFigures>("startup-runner.ts", [], env),
  },
];

const isPrivacy = (f: InProcessFigures): f is PrivacyFigures => "usPerAddress" in f;
const isBulk = (f: InProcessFigures): f is BulkFigures => "jobs" in f;
const isRules = (f: InProcessFigures): f is RulesFigures => "backtest" in f;
const isScans = (f: InProcessFigures): f is ScanFigures => "scans" in f;

const fmt = (n: number, digits = 2) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function printInProcess(results: InProcessResult[]): void {
  for (const r of results) {
    if (!r.figures) {
      console.log(`${r.name}\n  ${r.status}: ${r.reason ?? ""}`);
      continue;
    }
    if (isLockfileScan(r.figures)) {
      printLockfileScan(r.name, r.figures, r.loadAverage);
      continue;
    }
    if (isPages(r.figures)) {
      printPages(r.name, r.figures, r.loadAverage);
      continue;
    }
    if (isStartup(r.figures)) {
      printStartup(r.name, r.figures, r.loadAverage);
      continue;
    }
    if (isRules(r.figures)) {
      const f = r.figures;
      console.log(
        `${r.name} (${f.store} store; ${f.backtest.assessments} assessments seeded in ${fmt(f.backtest.seedSeconds, 1)} s)`,
      );
      for (const b of f.backtest.runs)
        console.log(
          `  backtest, ${b.rule}: ${fmt(b.ms / 1000, 2)} s over ${b.evaluated} assessments, ${b.matched} matched`,
        );
      for (const a of f.assess)
        console.log(
          `  POST /v1/assess with ${a.rules} active expression rules: ${fmt(a.perSecond, 1)} req/s (1 connection, in-process), p50 ${fmt(a.p50Ms)} ms, p95 ${fmt(a.p95Ms)} ms`,
        );
      console.log(`  load avg ${fmt(r.loadAverage.before, 1)} -> ${fmt(r.loadAverage.after, 1)}`);
      continue;
    }
    if (isScans(r.figures)) {
      console.log(`${r.name} (${r.figures.store} store)`);
      for (const s of r.figures.scans) {
        console.log(
          `  ${s.site} (grade ${s.grade}${s.grade === s.expectedGrade ? "" : `, EXPECTED ${s.expectedGrade}`}): ${s.scans} scans after ${s.warmup} warm-up, p50 ${fmt(s.p50Ms, 1)} ms, p95 ${fmt(s.p95Ms, 1)} ms (min ${fmt(s.minMs, 1)}, max ${fmt(s.maxMs, 1)}), units charged ${s.unitsCharged} ${s.unitsExact ? "exact" : "NOT EXACT"}`,
        );
      }
      console.log(`  load avg ${fmt(r.loadAverage.before, 1)} -> ${fmt(r.loadAverage.after, 1)}`);
      continue;
    }
    if (isBulk(r.figures)) {
      console.log(`${r.name} (${r.figures.store} store)`);
      for (const j of r.figures.jobs) {
        console.log(
          `  ${j.name}: ${fmt(j.totalMs / 1000, 2)} s, ${fmt(j.msPerItem, 1)} ms per item, ${j.succeeded} succeeded, ${j.failed} failed, units charged ${j.unitsCharged} (refunded ${j.unitsRefunded}) ${j.unitsExact ? "exact" : "NOT EXACT"}`,
        );
      }
      console.log(`  load avg ${fmt(r.loadAverage.before, 1)} -> ${fmt(r.loadAverage.after, 1)}`);
      continue;
    }
    if (isPrivacy(r.figures)) {
      const f = r.figures;
      console.log(`${r.name}: ${f.lists} lists, ${f.ranges} ranges, ${f.intervals} disjoint intervals`);
      console.log(
        `  build ${fmt(f.buildMs.median, 1)} ms (first ${fmt(f.buildMs.first, 1)} ms), heap ${fmt(f.heapMiB, 1)} MiB`,
      );
      for (const [mix, us] of Object.entries(f.usPerAddress))
        console.log(`  ${mix.padEnd(18)} ${fmt(us, 3).padStart(7)} µs per classification`);
      console.log(
        `  one index lookup: ${fmt(f.usPerLookup.shipped, 3)} µs with the shipped lists, ${fmt(f.usPerLookup.fourTimesTheLists, 3)} µs with four times as many`,
      );
      console.log(`  load avg ${fmt(r.loadAverage.before, 1)} -> ${fmt(r.loadAverage.after, 1)}`);
      continue;
    }
    console.log(
      `${r.name}: ${r.figures.package}, ${r.figures.advisories} advisories, first report of the process ${fmt(r.figures.firstReportMs, 1)} ms`,
    );
    const head = ["cache state", "reports", "mean ms", "p50 ms", "p95 ms", "upstream calls/report", "by source"];
    const rows = r.figures.modes.map((m) => [
      m.mode,
      String(m.reports),
      fmt(m.msPerReport.mean),
      fmt(m.msPerReport.p50),
      fmt(m.msPerReport.p95),
      fmt(m.upstreamCallsPerReportTotal, 1),
      Object.entries(m.upstreamCallsPerReport)
        .map(([s, n]) => `${s} ${n}`)
        .join(", ") || "none",
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) =>
      "  " + cells.map((c, i) => (i >= 1 && i <= 5 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
    console.log(line(head));
    console.log("  " + widths.map((w) => "-".repeat(w)).join("  "));
    for (const row of rows) console.log(line(row));
    console.log(`  load avg ${fmt(r.loadAverage.before, 1)} -> ${fmt(r.loadAverage.after, 1)}`);
  }
}

// Benchmarks that time a domain function in its own process instead of loading a server: the npm report with
// 50 advisories, cold, revalidating and warm, with the upstream calls each report made (bench/npm-report-runner.ts).
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RunnerOutput } from "./npm-report-runner";
import { runToEnd } from "./process";
import type { Prepared } from "./scenarios";
import { MANY_ADVISORIES_PACKAGE } from "./scenarios";
import { fakePackageSources } from "./upstreams";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export interface InProcessBench {
  name: string;
  prepare: () => Promise<Prepared>;
  /** Runs the bench with the prepared environment and returns its figures. */
  run(env: Record<string, string>): Promise<RunnerOutput>;
}

export interface InProcessResult {
  name: string;
  status: "measured" | "failed";
  reason: string | null;
  figures: RunnerOutput | null;
  loadAverage: { before: number; after: number };
}

export const NPM_IN_PROCESS = "npm report in-process: getNpmReportOrThrow (50 advisories)";

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
    async run(env) {
      const tsxCli = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
      const out = await runToEnd(process.execPath, [tsxCli, path.join("bench", "npm-report-runner.ts"), MANY_ADVISORIES_PACKAGE, String(iterations())], {
        cwd: root,
        env: { ...process.env, ...env },
      });
      const line = out.trim().split("\n").filter((l) => l.startsWith("{")).pop();
      if (!line) throw new Error(`the runner printed no result: ${out.slice(-1000)}`);
      return JSON.parse(line) as RunnerOutput;
    },
  },
];

const fmt = (n: number, digits = 2) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function printInProcess(results: InProcessResult[]): void {
  for (const r of results) {
    console.log(`${r.name}${r.figures ? `: ${r.figures.package}, ${r.figures.advisories} advisories, first report of the process ${fmt(r.figures.firstReportMs, 1)} ms` : ""}`);
    if (!r.figures) {
      console.log(`  ${r.status}: ${r.reason ?? ""}`);
      continue;
    }
    const head = ["cache state", "reports", "mean ms", "p50 ms", "p95 ms", "upstream calls/report", "by source"];
    const rows = r.figures.modes.map((m) => [
      m.mode,
      String(m.reports),
      fmt(m.msPerReport.mean),
      fmt(m.msPerReport.p50),
      fmt(m.msPerReport.p95),
      fmt(m.upstreamCallsPerReportTotal, 1),
      Object.entries(m.upstreamCallsPerReport).map(([s, n]) => `${s} ${n}`).join(", ") || "none",
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) => "  " + cells.map((c, i) => (i >= 1 && i <= 5 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
    console.log(line(head));
    console.log("  " + widths.map((w) => "-".repeat(w)).join("  "));
    for (const row of rows) console.log(line(row));
    console.log(`  load avg ${fmt(r.loadAverage.before, 1)} -> ${fmt(r.loadAverage.after, 1)}`);
  }
}

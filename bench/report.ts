// The machine description, the printed table and the JSON record of a run (bench/results/<timestamp>.json).
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Figures } from "./load";

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  note: string;
}

export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cores: os.availableParallelism?.() ?? cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    note: "load generator, server and database share this machine",
  };
}

export interface ScenarioResult {
  scenario: string;
  store: string | null;
  status: "measured" | "not available" | "failed";
  reason: string | null;
  reference: string | null;
  /**
   * The reference measured again just before this scenario (bench/run.ts), so that the ratios compare measurements
   * seconds apart; null for a reference itself, or when it could not be measured again.
   */
  referenceBeside: Figures | null;
  /** requests/s of this scenario divided by its reference's (the one beside it if any); null when either is missing. */
  ratioToReference: number | null;
  figures: Figures | null;
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function printTable(results: ScenarioResult[]): void {
  const head = [
    "scenario",
    "store",
    "requests/s",
    "p50 ms",
    "p99 ms",
    "non-2xx",
    "ratio to reference",
    "reference beside req/s",
    "server CPU ms/req",
    "CPU x reference",
    "upstream calls/req",
    "load avg",
  ];
  const rows = results.map((r) => {
    const f = r.figures;
    // The full reason is printed as a note under the table; one short line keeps the table readable.
    const short = (r.reason ?? "").split("\n")[0]!.slice(0, 60);
    if (!f) return [r.scenario, r.store ?? "-", r.status, "", "", "", short, "", "", "", "", ""];
    const refCpu = r.referenceBeside?.serverCpuMsPerRequest ?? null;
    return [
      r.scenario,
      r.store ?? "-",
      fmt(f.requestsPerSecond),
      fmt(f.latencyMs.p50, 1),
      fmt(f.latencyMs.p99, 1),
      fmt(f.non2xx),
      r.ratioToReference === null ? "-" : `${fmt(r.ratioToReference * 100, 1)} %`,
      r.referenceBeside ? fmt(r.referenceBeside.requestsPerSecond) : "-",
      f.serverCpuMsPerRequest === null ? "-" : fmt(f.serverCpuMsPerRequest, 3),
      f.serverCpuMsPerRequest === null || !refCpu ? "-" : `${fmt(f.serverCpuMsPerRequest / refCpu, 1)} x`,
      f.upstreamCallsPerRequest
        ? Object.entries(f.upstreamCallsPerRequest)
            .map(([s, n]) => `${s} ${fmt(n, 2)}`)
            .join(", ") || "0"
        : "-",
      `${fmt(f.loadAverage.before, 1)} -> ${fmt(f.loadAverage.after, 1)}`,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => ((i >= 2 && i <= 5) || (i >= 7 && i <= 9) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ");
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
}

export function printMachine(m: Machine): void {
  console.log(
    `machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node} (${m.note})`,
  );
}

export function writeResults(root: string, record: unknown, startedAt: Date): string {
  const dir = path.join(root, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(record, null, 2) + "\n");
  return file;
}

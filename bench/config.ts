import path from "node:path";

// Benchmark settings, all from the environment so a run can be shortened or widened without editing code.

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive whole number, got ${JSON.stringify(raw)}`);
  return n;
}

function list(name: string): string[] | null {
  const raw = process.env[name]?.trim();
  return raw
    ? raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : null;
}

export interface BenchSettings {
  /** Seconds of measured load per scenario. */
  duration: number;
  /** Seconds of discarded load before each measurement (JIT, connection pools, caches). */
  warmup: number;
  connections: number;
  pipelining: number;
  /**
   * A scenario with a reference is measured in this many slices of duration/rounds seconds, each right after a
   * slice of its reference: the ratio then compares the two over the same minutes, whatever the machine's drift.
   */
  rounds: number;
  /** Stores to run, in order; default both. */
  stores: string[];
  /** Scenario names to run; default all. */
  scenarios: string[] | null;
  /** PostgreSQL server for the postgresql store; a fresh schema is created in it and dropped afterwards. */
  databaseUrl: string;
  /** When set, the service records a V8 CPU profile into this folder (open it in Chrome DevTools). */
  cpuProfileDir: string | null;
}

export function readSettings(): BenchSettings {
  return {
    duration: positiveInt("BENCH_DURATION", 10),
    warmup: positiveInt("BENCH_WARMUP", 3),
    connections: positiveInt("BENCH_CONNECTIONS", 48),
    pipelining: positiveInt("BENCH_PIPELINING", 1),
    rounds: positiveInt("BENCH_ROUNDS", 5),
    stores: list("BENCH_STORES") ?? ["pglite", "postgresql"],
    scenarios: list("BENCH_SCENARIOS"),
    databaseUrl:
      process.env.BENCH_DATABASE_URL?.trim() ||
      process.env.DATABASE_URL?.trim() ||
      "postgresql://postgres@127.0.0.1:5432/test",
    cpuProfileDir: process.env.BENCH_CPU_PROF_DIR?.trim() ? path.resolve(process.env.BENCH_CPU_PROF_DIR.trim()) : null,
  };
}

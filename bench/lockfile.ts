// The dependency-scan benchmark's settings, figures and how they are printed beside the other in-process figures
// (bench/in-process.ts); the measuring is in bench/lockfile-runner.ts, the fakes in bench/lockfile-fakes.ts and the
// generated lockfile in bench/lockfile-world.ts. Targets: a 1,000-package lockfile answers in under 10 s cold against
// the local fakes (issue 25, item 1), in under 0.2 s warm, and in under 1 s once every cache entry has expired and
// the fakes answer the conditional requests 304 (issue 46, item 5).
import type { WorldOptions } from "./lockfile-world";

export const LOCKFILE_IN_PROCESS =
  "dependency scan in-process: POST /v1/vulnerabilities/scan of a 1000-package package-lock (cold and warm)";

export const LOCKFILE_TARGETS = { warmMs: 200, expiredMs: 1_000, coldMs: 10_000 };

export type CacheState = "cold" | "revalidate" | "warm" | "expired";

/** The target of a cache state (revalidate, a cleared upstream cache with the OSV records kept, is held to cold's). */
export const targetOf = (state: CacheState) =>
  state === "warm"
    ? LOCKFILE_TARGETS.warmMs
    : state === "expired"
      ? LOCKFILE_TARGETS.expiredMs
      : LOCKFILE_TARGETS.coldMs;

function positiveInt(name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0 || n > max)
    throw new Error(`${name} must be a whole number from 1 to ${max}, got ${JSON.stringify(raw)}`);
  return n;
}

/** BENCH_LOCKFILE_ITERATIONS: timed scans per cache state (default 5). */
export const lockfileIterations = () => positiveInt("BENCH_LOCKFILE_ITERATIONS", 5, 50);

/** BENCH_LOCKFILE_LATENCY_MS: each fake answer's delay, "min-max" or one number of ms (default 20-50). */
export function latencyRange(): [number, number] {
  const raw = process.env.BENCH_LOCKFILE_LATENCY_MS?.trim() || "20-50";
  const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(raw);
  if (!m) throw new Error(`BENCH_LOCKFILE_LATENCY_MS must be "min-max" or a number of ms, got ${JSON.stringify(raw)}`);
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : Number(m[2]);
  if (max < min) throw new Error(`BENCH_LOCKFILE_LATENCY_MS: ${max} is below ${min}`);
  return [min, max];
}

/** BENCH_LOCKFILE_PACKAGES: package versions in the generated lockfile (default 1000; the route takes 5,000). */
export function worldOptionsFromEnv(): WorldOptions | null {
  if (!process.env.BENCH_LOCKFILE_PACKAGES?.trim()) return null;
  return { packages: positiveInt("BENCH_LOCKFILE_PACKAGES", 1000, 5000), vulnerableShare: 0.1, seed: 25 };
}

export interface StateFigures {
  state: CacheState;
  scans: number;
  /** From sending the request to the whole answer read, through the REST handler. */
  ms: { median: number; min: number; max: number };
  /**
   * The service's CPU time for the scan (the runner's process.cpuUsage, user + system; the fakes run in a process of
   * their own): the server time a scan costs, less sensitive to a loaded machine than the wall time.
   */
  cpuMs: { median: number; min: number; max: number };
  /** The issue's target for this state (revalidate is held to the cold one). */
  targetMs: number;
  /** Requests the fakes received per scan, by source, and the bytes they answered. */
  upstreamRequestsPerScan: Record<string, number>;
  /** Of those, the ones answered 304 Not Modified, by source. */
  upstreamNotModifiedPerScan: Record<string, number>;
  upstreamBytesPerScan: number;
  responseBytes: number;
}

export interface LockfileScanFigures {
  store: string;
  lockfile: {
    packageVersions: number;
    packages: number;
    bytes: number;
    vulnerable: number;
    malware: number;
    advisories: number;
    cves: number;
    installScripts: number;
  };
  fakes: { latencyMs: [number, number]; packumentBytes: number; osvRecords: number };
  /** The process's first scan (cold caches, plus JIT, first queries and the typosquat index), timed on its own. */
  firstScanMs: number;
  states: StateFigures[];
  /** Warm: the lockfile's parse alone, and scanLockfileOrThrow alone (the domain work, without the REST door). */
  warmParts: { parseMs: number; scanMs: number };
  byFinding: Record<string, number>;
  units: { charged: number; expected: number; exact: boolean };
}

export const isLockfileScan = (f: object): f is LockfileScanFigures => "warmParts" in f && "states" in f;

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ms = (n: number) => `${Math.round(n)} ms`;
const mb = (n: number) => `${(n / 1_000_000).toFixed(1)} MB`;

export function printLockfileScan(
  name: string,
  f: LockfileScanFigures,
  loadAverage: { before: number; after: number },
): void {
  const l = f.lockfile;
  console.log(
    `${name} (${f.store} store; ${l.packageVersions} package versions of ${l.packages} packages, ${mb(l.bytes)}; ` +
      `${l.vulnerable} vulnerable, ${l.malware} malware, ${l.installScripts} with install scripts; ` +
      `fakes answer in ${f.fakes.latencyMs.join("-")} ms, ${mb(f.fakes.packumentBytes)} of packuments)`,
  );
  console.log(`  first scan of the process: ${s(f.firstScanMs)}`);
  const head = [
    "cache state",
    "scans",
    "median",
    "min",
    "max",
    "CPU median",
    "target",
    "ratio to target",
    "upstream requests/scan",
    "of them 304",
    "upstream bytes/scan",
  ];
  const rows = f.states.map((st) => {
    const ratio = st.ms.median / st.targetMs;
    const calls = Object.entries(st.upstreamRequestsPerScan).filter(([, n]) => n > 0);
    const unchanged = Object.entries(st.upstreamNotModifiedPerScan ?? {}).filter(([, n]) => n > 0);
    return [
      st.state,
      String(st.scans),
      s(st.ms.median),
      s(st.ms.min),
      s(st.ms.max),
      st.cpuMs ? s(st.cpuMs.median) : "-",
      s(st.targetMs),
      `${ratio.toFixed(2)} (${ratio < 1 ? "met" : "MISSED"})`,
      calls.length ? calls.map(([src, n]) => `${src} ${n}`).join(", ") : "none",
      unchanged.length ? unchanged.map(([src, n]) => `${src} ${n}`).join(", ") : "none",
      mb(st.upstreamBytesPerScan),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const right = (i: number) => (i >= 1 && i <= 7) || i === 10;
  const line = (cells: string[]) =>
    "  " + cells.map((c, i) => (right(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  console.log(line(head));
  console.log("  " + widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
  const warm = f.states.find((st) => st.state === "warm");
  console.log(
    `  warm, in parts: lockfile parse ${ms(f.warmParts.parseMs)}, scanLockfileOrThrow ${ms(f.warmParts.scanMs)}` +
      (warm ? `, the rest of the REST request ${ms(Math.max(0, warm.ms.median - f.warmParts.scanMs))}` : "") +
      (warm ? `; answer ${mb(warm.responseBytes)}` : ""),
  );
  console.log(
    `  findings: ${
      Object.entries(f.byFinding)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ") || "none"
    }; units charged ${f.units.charged} ${f.units.exact ? "exact" : `NOT EXACT (expected ${f.units.expected})`}`,
  );
  console.log(`  load avg ${loadAverage.before.toFixed(1)} -> ${loadAverage.after.toFixed(1)}`);
}

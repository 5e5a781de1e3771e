// In-process timing of the dependency scan (issue 25, item 1): POST /v1/vulnerabilities/scan through the REST
// handler (key, bulk entitlement, one unit per package version reserved at once, the scan, the history entry), with
// a generated 1,000-package package-lock.json v3 (bench/lockfile-world.ts) against local fakes of the npm registry,
// npm's download counts, OSV and EPSS in a process of their own (bench/lockfile-fakes.ts, 20-50 ms per answer).
// The states of the service's caches, each timed BENCH_LOCKFILE_ITERATIONS times (default 5), median reported:
// - cold: upstream cache, remembered OSV records and EPSS scores cleared (a lockfile nobody scanned recently);
// - revalidate: upstream cache and EPSS scores cleared, OSV records kept (the cache TTL ran out; unchanged
//   advisories, known by id and `modified`, are not fetched again);
// - warm: the same lockfile again within SERVICE_PACKAGE_CACHE_TTL_SECONDS;
// - expired: every cache entry's time ended (upstream answers and EPSS scores kept with their validators): the
//   registry documents and download counts are asked for again with If-None-Match / If-Modified-Since and the fakes
//   answer 304, so nothing is parsed again; OSV's batch query (a POST) and EPSS (no validators) are asked in full.
// The process's first scan (JIT, first queries, the typosquat index) is timed on its own. Every answer is checked
// (all package versions, the vulnerable and malware counts, every registry document answered, EPSS ok) and the
// units charged must be one per package version per scan. Prints one JSON line (LockfileScanFigures).
// Store: embedded in a temp dir, or PostgreSQL when BENCH_DATABASE_URL is set (own schema).
import { rm } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import {
  latencyRange,
  lockfileIterations,
  targetOf,
  worldOptionsFromEnv,
  type CacheState,
  type LockfileScanFigures,
  type StateFigures,
} from "./lockfile";
import { buildWorld, DEFAULT_WORLD } from "./lockfile-world";
import { startChild, type Child } from "./process";
import { useBenchStore } from "./runner-store";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

type Stats = {
  requests: Record<string, number>;
  bytes: Record<string, number>;
  notModified: Record<string, number>;
};
type FakeInfo = {
  env: Record<string, string>;
  statsUrl: string;
  build: { ms: number; packumentBytes: number; osvRecords: number };
};

async function startFakes(): Promise<{ child: Child; info: FakeInfo }> {
  const tsxCli = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
  const child = startChild(process.execPath, [tsxCli, path.join("bench", "lockfile-fakes.ts")], {
    cwd: root,
    env: { ...process.env, BENCH_LOCKFILE_PARENT_PID: String(process.pid) },
    label: "lockfile fakes",
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const line = child
      .output()
      .split("\n")
      .find((l) => l.startsWith("{"));
    if (line) return { child, info: JSON.parse(line) as FakeInfo };
    if (child.proc.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await child.stop();
  throw new Error(`the lockfile fakes did not start:\n${child.output().slice(-2000)}`);
}

async function main(): Promise<void> {
  const store = useBenchStore("lockfile");
  const iterations = lockfileIterations();
  const world = buildWorld(worldOptionsFromEnv() ?? DEFAULT_WORLD);
  const { child, info } = await startFakes();
  try {
    Object.assign(process.env, info.env);
    const figures = await measure(store, iterations, world, info);
    console.log(JSON.stringify(figures satisfies LockfileScanFigures));
  } finally {
    await child.stop();
    // The embedded store's temporary folder (useBenchStore made it for this process only).
    if (store === "embedded" && process.env.SERVICE_DATA_DIR)
      await rm(process.env.SERVICE_DATA_DIR, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function measure(
  store: string,
  iterations: number,
  world: ReturnType<typeof buildWorld>,
  fakes: FakeInfo,
): Promise<LockfileScanFigures> {
  const { getDb, closeDb } = await import("../server/db/client");
  const { createWorkspace } = await import("../server/workspaces/workspaces");
  const { handleRestRequest } = await import("../server/api/rest/handler");
  const { clearUpstreamCache, expireUpstreamCache } = await import("../server/providers/packages/http");
  const { clearOsvRecords } = await import("../server/providers/packages/osv");
  const { clearEpssScores, expireEpssScores } = await import("../server/providers/epss");
  const { parseLockfile } = await import("../server/vulnerabilities/lockfiles");
  const { scanLockfileOrThrow } = await import("../server/vulnerabilities/lockfile-scan/scan");
  const { getFeed } = await import("../server/feeds/loader");
  const { kevFeed } = await import("../server/vulnerabilities/kev-feed");
  const { PLANS } = await import("../server/plans/catalog");
  const db = await getDb();
  // The known-exploited catalog is shipped data the server holds from its first use: loaded before the timing.
  await getFeed(kevFeed);

  const perScan = world.expect.packageVersions;
  const allowance = PLANS.suite_business.monthlyUnits;
  if (perScan > allowance) throw new Error(`a scan of ${perScan} units exceeds suite_business's ${allowance}`);
  // suite_business (bulk lookups) allows 25,000 units a month: a fresh workspace when the next scan would pass it.
  const workspaces: { id: string; key: string; used: number }[] = [];
  const workspace = async () => {
    let ws = workspaces[workspaces.length - 1];
    if (!ws || ws.used + perScan > allowance) {
      const n = workspaces.length + 1;
      const created = await createWorkspace(db, {
        name: `bench lockfile ${n}`,
        plans: ["suite_business"],
        ownerEmail: `bench-lockfile-${n}@example.com`,
      });
      ws = { id: created.workspaceId, key: created.apiKey, used: 0 };
      workspaces.push(ws);
    }
    ws.used += perScan;
    return ws;
  };

  const stats = async (): Promise<Stats> => {
    const res = await fetch(fakes.statsUrl, { signal: AbortSignal.timeout(10_000) });
    return (await res.json()) as Stats;
  };

  type Answer = {
    packages?: { registry: { status: string } }[];
    summary?: { packages: number; vulnerable: number; malware: number; byFinding: Record<string, number> };
    sources?: { source: string; status: string }[];
  };
  const scanOnce = async () => {
    const ws = await workspace();
    const before = await stats();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const res = await handleRestRequest(
      new Request("http://127.0.0.1:3000/v1/vulnerabilities/scan", {
        method: "POST",
        headers: { Authorization: `Bearer ${ws.key}`, "Content-Type": "text/plain" },
        body: world.lockfile,
      }),
    );
    const text = await res.text();
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const after = await stats();
    if (res.status !== 200)
      throw new Error(`POST /v1/vulnerabilities/scan answered ${res.status}: ${text.slice(0, 500)}`);
    const body = JSON.parse(text) as Answer;
    const e = world.expect;
    const problems: string[] = [];
    if (body.summary?.packages !== e.packageVersions)
      problems.push(`${body.summary?.packages} package versions, expected ${e.packageVersions}`);
    if (body.summary?.vulnerable !== e.vulnerable)
      problems.push(`${body.summary?.vulnerable} vulnerable, expected ${e.vulnerable}`);
    if (body.summary?.malware !== e.malware) problems.push(`${body.summary?.malware} malware, expected ${e.malware}`);
    const unanswered = (body.packages ?? []).filter((p) => p.registry.status !== "ok").length;
    if (unanswered > 0) problems.push(`${unanswered} registry documents not answered`);
    const epss = body.sources?.find((s) => s.source === "epss")?.status;
    if (epss !== "ok") problems.push(`EPSS source ${epss}`);
    const stray = (after.requests.other ?? 0) - (before.requests.other ?? 0);
    if (stray > 0) problems.push(`${stray} upstream requests to paths the fakes do not serve`);
    if (problems.length) throw new Error(`the scan's answer is wrong: ${problems.join("; ")}`);
    const diff = (k: keyof Stats) =>
      Object.fromEntries(Object.entries(after[k]).map(([src, n]) => [src, n - (before[k][src] ?? 0)]));
    return {
      ms,
      cpuMs,
      requests: diff("requests"),
      notModified: diff("notModified"),
      bytes: diff("bytes"),
      responseBytes: Buffer.byteLength(text),
      body,
    };
  };

  const prepare = (state: CacheState) => {
    if (state === "warm") return;
    if (state === "expired") {
      expireUpstreamCache();
      expireEpssScores();
      return;
    }
    clearUpstreamCache();
    clearEpssScores(); // kept for the package cache's TTL: it runs out with the upstream cache
    if (state === "cold") clearOsvRecords();
  };

  const averagePerScan = (totals: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(totals)
        .filter(([, n]) => n > 0)
        .map(([src, n]) => [src, round(n / iterations)]),
    );

  prepare("cold");
  const first = await scanOnce();
  const states: StateFigures[] = [];
  let last = first;
  for (const state of ["cold", "revalidate", "warm", "expired"] as const) {
    const times: number[] = [];
    const cpuTimes: number[] = [];
    const requests: Record<string, number> = {};
    const notModified: Record<string, number> = {};
    let bytes = 0;
    for (let i = 0; i < iterations; i++) {
      prepare(state);
      last = await scanOnce();
      times.push(last.ms);
      cpuTimes.push(last.cpuMs);
      for (const [src, n] of Object.entries(last.requests)) requests[src] = (requests[src] ?? 0) + n;
      for (const [src, n] of Object.entries(last.notModified)) notModified[src] = (notModified[src] ?? 0) + n;
      bytes += Object.values(last.bytes).reduce((a, b) => a + b, 0);
    }
    // Expired: every registry document must have been renewed by a 304, none fetched and parsed again.
    if (state === "expired" && (notModified.npm ?? 0) !== (requests.npm ?? 0))
      throw new Error(`expired: ${notModified.npm ?? 0} of ${requests.npm ?? 0} registry requests were answered 304`);
    states.push({
      state,
      scans: iterations,
      ms: { median: round(median(times)), min: round(Math.min(...times)), max: round(Math.max(...times)) },
      cpuMs: {
        median: round(median(cpuTimes)),
        min: round(Math.min(...cpuTimes)),
        max: round(Math.max(...cpuTimes)),
      },
      targetMs: targetOf(state),
      upstreamRequestsPerScan: averagePerScan(requests),
      upstreamNotModifiedPerScan: averagePerScan(notModified),
      upstreamBytesPerScan: Math.round(bytes / iterations),
      responseBytes: last.responseBytes,
    });
  }

  // Warm, in parts: the parse alone, and the domain function alone on that parse (every upstream answer cached).
  const parseTimes: number[] = [];
  const scanTimes: number[] = [];
  for (let i = 0; i < iterations; i++) {
    let t = performance.now();
    const parsed = parseLockfile(world.lockfile);
    parseTimes.push(performance.now() - t);
    t = performance.now();
    await scanLockfileOrThrow(parsed);
    scanTimes.push(performance.now() - t);
  }

  let charged = 0;
  for (const ws of workspaces)
    charged += (await db.usagePeriod.findMany({ where: { workspaceId: ws.id } })).reduce((n, r) => n + r.used, 0);
  const expected = (1 + 4 * iterations) * perScan;
  await closeDb();
  return {
    store,
    lockfile: {
      packageVersions: world.expect.packageVersions,
      packages: world.expect.packages,
      bytes: Buffer.byteLength(world.lockfile),
      vulnerable: world.expect.vulnerable,
      malware: world.expect.malware,
      advisories: world.expect.advisories,
      cves: world.expect.cves,
      installScripts: world.expect.installScripts,
    },
    fakes: {
      latencyMs: latencyRange(),
      packumentBytes: fakes.build.packumentBytes,
      osvRecords: fakes.build.osvRecords,
    },
    firstScanMs: round(first.ms),
    states,
    warmParts: { parseMs: round(median(parseTimes)), scanMs: round(median(scanTimes)) },
    byFinding: last.body.summary?.byFinding ?? {},
    units: { charged, expected, exact: charged === expected },
  };
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);

// `npm run bench`: the metered REST API under saturation on each store, beside the same lookup behind a bare
// node:http server. Settings: BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_PIPELINING, BENCH_STORES,
// BENCH_SCENARIOS, BENCH_DATABASE_URL, BENCH_CPU_PROF_DIR, BENCH_NPM_ITERATIONS (see docs/benchmarks.md).
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuild } from "./build";
import { settle } from "./cpu";
import { readSettings, type BenchSettings } from "./config";
import { IN_PROCESS, printInProcess, type InProcessBench, type InProcessResult } from "./in-process";
import { combineFigures, measureCounted, probe, type Figures } from "./load";
import { freePort, startChild, waitForHttp } from "./process";
import { describeMachine, printMachine, printTable, writeResults, type ScenarioResult } from "./report";
import { SCENARIOS, type Prepared, type Scenario } from "./scenarios";
import { giveUnitsBack, startService, type RunningService } from "./service";
import { openStore } from "./stores";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const log = (msg: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);

function selectInProcess(s: BenchSettings): InProcessBench[] {
  return s.scenarios ? IN_PROCESS.filter((b) => s.scenarios!.includes(b.name)) : IN_PROCESS;
}

function selectScenarios(s: BenchSettings): Scenario[] {
  if (!s.scenarios) return SCENARIOS;
  const wanted = new Set(s.scenarios);
  // A selected scenario brings its reference along, so its ratio can be computed.
  for (const sc of SCENARIOS) if (wanted.has(sc.name) && sc.reference) wanted.add(sc.reference);
  const chosen = SCENARIOS.filter((sc) => wanted.has(sc.name));
  if (chosen.length === 0 && selectInProcess(s).length === 0)
    throw new Error(
      `BENCH_SCENARIOS matched nothing; scenarios: ${[...SCENARIOS, ...IN_PROCESS].map((sc) => sc.name).join(" | ")}`,
    );
  return chosen;
}

const empty = (
  scenario: Scenario,
  store: string | null,
  status: "not available" | "failed",
  reason: string,
): ScenarioResult => ({
  scenario: scenario.name,
  store,
  status,
  reason,
  reference: scenario.reference ?? null,
  referenceBeside: null,
  ratioToReference: null,
  figures: null,
});

const connectionsFor = (sc: Scenario, s: BenchSettings) => Math.min(s.connections, sc.maxConnections ?? s.connections);

type Counters = Map<string, Prepared["counters"]>;
/** The references measured again beside a service scenario (bench/run.ts main). */
interface ReferenceBeside {
  /** Whether the named reference can be measured again: its server is up and its first measurement succeeded. */
  available(name: string): boolean;
  /** Probes and warms it up again, before a scenario's first slice; false when that failed. */
  warm(name: string): Promise<boolean>;
  /** One slice of it; null unless it is a clean measurement (requests made, no errors, only its expected status). */
  slice(name: string, seconds: number): Promise<Figures | null>;
}

/** The bare reference server, started once and kept up for the whole run, so a reference can be measured again. */
interface ReferenceServer {
  /** Measures a reference scenario: probe, warm-up, then the run. */
  measure(sc: Scenario, counters: Counters): Promise<Figures>;
  /** Probes it and warms it up again (BENCH_WARMUP), before a scenario's first slice beside it. */
  warm(sc: Scenario): Promise<void>;
  /** Measures it again for `seconds`, without probe or warm-up (the server is warm). */
  slice(sc: Scenario, seconds: number, counters: Counters): Promise<Figures>;
  stop(): Promise<void>;
}

async function startReferenceServer(s: BenchSettings, upstreamEnv: Record<string, string>): Promise<ReferenceServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const tsxCli = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
  // Feeds look for a refreshed copy in the database first: an empty embedded store makes the reference answer from
  // the shipped data, as the service's fresh stores do.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "svc-bench-ref-"));
  const env: NodeJS.ProcessEnv = { ...process.env, ...upstreamEnv, PORT: String(port), SERVICE_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.SERVICE_DB_SCHEMA;
  const child = startChild(process.execPath, [tsxCli, path.join("bench", "reference-server.ts")], {
    cwd: root,
    env,
    label: "reference",
  });
  const stop = async () => {
    await child.stop();
    await rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
  };
  try {
    await waitForHttp(`${origin}/ip/8.8.8.8/geo`, child, 180_000);
  } catch (err) {
    await stop();
    throw err;
  }
  const loadOf = (sc: Scenario) => ({
    origin,
    prefix: "",
    headers: {},
    connections: connectionsFor(sc, s),
    pipelining: s.pipelining,
    serverPgid: child.proc.pid,
  });
  const warm = async (sc: Scenario) => {
    const first = await probe(sc, origin, "", {});
    if (first.status !== (sc.expectStatus ?? 200)) throw new Error(`probe answered ${first.status}: ${first.text}`);
    if (first.problem) throw new Error(`probe answer is wrong: ${first.problem}`);
    await measureCounted(sc, { ...loadOf(sc), seconds: s.warmup });
  };
  return {
    async measure(sc, counters) {
      await warm(sc);
      return measureCounted(sc, { ...loadOf(sc), seconds: s.duration }, counters.get(sc.name));
    },
    warm,
    slice: (sc, seconds, counters) =>
      measureCounted(sc, { ...loadOf(sc), seconds, sequence: `reference ${sc.name}` }, counters.get(sc.name)),
    stop,
  };
}

async function runReferences(
  scenarios: Scenario[],
  server: ReferenceServer,
  s: BenchSettings,
  counters: Counters,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const sc of scenarios) {
    try {
      log(`${sc.name}: warm-up ${s.warmup} s, then ${s.duration} s at ${connectionsFor(sc, s)} connections`);
      const figures = await server.measure(sc, counters);
      results.push({
        scenario: sc.name,
        store: null,
        status: "measured",
        reason: null,
        reference: null,
        referenceBeside: null,
        ratioToReference: null,
        figures,
      });
    } catch (err) {
      results.push(empty(sc, null, "failed", (err as Error).message));
    }
  }
  return results;
}

async function runInProcess(benches: InProcessBench[], prepared: Map<string, Prepared>): Promise<InProcessResult[]> {
  const results: InProcessResult[] = [];
  for (const b of benches) {
    const before = os.loadavg()[0]!;
    log(`${b.name}`);
    try {
      const figures = await b.run(prepared.get(b.name)?.env ?? {});
      results.push({
        name: b.name,
        status: "measured",
        reason: null,
        figures,
        loadAverage: { before, after: os.loadavg()[0]! },
      });
    } catch (err) {
      results.push({
        name: b.name,
        status: "failed",
        reason: (err as Error).message,
        figures: null,
        loadAverage: { before, after: os.loadavg()[0]! },
      });
    }
  }
  return results;
}

async function runServiceScenario(
  sc: Scenario,
  svc: RunningService,
  store: string,
  workspaces: Map<string, { workspaceId: string; apiKey: string }>,
  s: BenchSettings,
  counters: Counters,
  beside: ReferenceBeside,
): Promise<ScenarioResult> {
  const plans = sc.plans ?? ["lookups_growth"];
  const planKey = sc.workspace ? `${plans.join("+")}:${sc.workspace}` : plans.join("+");
  let ws = workspaces.get(planKey);
  if (!ws) {
    const r = await svc.admin([
      "workspace",
      "create",
      "--name",
      `Bench ${planKey}`,
      ...plans.flatMap((p) => ["--plan", p]),
    ]);
    ws = { workspaceId: String(r.workspaceId), apiKey: String(r.apiKey) };
    workspaces.set(planKey, ws);
  }
  await sc.setup?.({
    baseUrl: svc.baseUrl,
    apiKey: ws.apiKey,
    workspaceId: ws.workspaceId,
    admin: (argv) => svc.admin(argv),
  });
  const headers: Record<string, string> = sc.anonymous ? {} : { authorization: `Bearer ${ws.apiKey}` };
  const expected = sc.expectStatus ?? 200;
  const first = await probe(sc, svc.baseUrl, "/v1", headers);
  if (first.status === 404 && first.code === "LOOKUP_NOT_FOUND")
    return empty(sc, store, "not available", "route not registered yet (404 LOOKUP_NOT_FOUND)");
  if (first.status !== expected)
    return empty(sc, store, "failed", `probe answered ${first.status} (expected ${expected}): ${first.text}`);
  if (first.problem) return empty(sc, store, "failed", `probe answer is wrong: ${first.problem}`);

  const connections = connectionsFor(sc, s);
  const load = {
    origin: svc.baseUrl,
    prefix: "/v1",
    headers,
    connections,
    pipelining: s.pipelining,
    serverPgid: svc.child.proc.pid,
  };
  // With a reference, the measurement alternates with it in slices (BENCH_ROUNDS): the machine's speed drifts over
  // a run (a virtual machine's neighbours), and a ratio of two measurements minutes apart carried that drift.
  const withReference = sc.reference !== undefined && beside.available(sc.reference);
  const rounds = withReference ? s.rounds : 1;
  const seconds = rounds === 1 ? s.duration : Math.max(1, Math.round((s.duration / rounds) * 10) / 10);
  log(
    `${sc.name} on ${store}: warm-up ${s.warmup} s, then ${rounds === 1 ? `${s.duration} s` : `${rounds} slices of ${seconds} s, each after one of its reference,`} at ${connections} connections`,
  );
  await measureCounted(sc, { ...load, seconds: s.warmup });
  await giveUnitsBack(svc, ws.workspaceId);
  // The reference may have sat idle for minutes: an upstream cache it relies on may have expired meanwhile.
  const referenceWarm = withReference && (await beside.warm(sc.reference!));
  const own: Figures[] = [];
  const refs: Figures[] = [];
  for (let i = 0; i < rounds; i++) {
    // Each slice starts once the machine is quiet (what the last one left behind has run; settle() waits at most 3 s),
    // the reference's as the service's.
    if (referenceWarm) {
      await settle();
      const ref = await beside.slice(sc.reference!, seconds);
      if (ref) refs.push(ref);
    }
    await settle();
    own.push(await measureCounted(sc, { ...load, seconds, sequence: `${store} ${sc.name}` }, counters.get(sc.name)));
  }
  const figures = combineFigures(own);
  const referenceBeside = withReference && refs.length === rounds ? combineFigures(refs) : null;
  // Said in the result when the ratio had to fall back to the reference's first measurement.
  const fallback =
    withReference && !referenceBeside
      ? `the reference beside it ${referenceWarm ? `failed in ${rounds - refs.length} of ${rounds} slices` : "could not be warmed up again"}: the ratio is against its first measurement`
      : null;
  const charged = await giveUnitsBack(svc, ws.workspaceId);
  const units = sc.unitsPerRequest ?? 1;
  const ok = figures.statusCodes["200"] ?? 0;
  let reason: string | null = null;
  if (figures.statusCodes["402"]) reason = "402 QUOTA_EXCEEDED during the run: lower BENCH_DURATION or raise the plan";
  // Requests still in flight when autocannon stops are charged but not counted: at most one per connection slot and
  // slice.
  else if (charged < ok * units || charged > (ok + connections * s.pipelining * rounds) * units) {
    reason = `units charged (${charged}) do not match 200 responses x ${units} (${ok * units}, plus up to ${connections * s.pipelining * rounds} in flight)`;
  }
  if (fallback) reason = reason ? `${reason}; ${fallback}` : fallback;
  return {
    scenario: sc.name,
    store,
    status: "measured",
    reason,
    reference: sc.reference ?? null,
    referenceBeside,
    ratioToReference: null,
    figures: { ...figures, unitsCharged: charged },
  };
}

async function runStore(
  name: string,
  scenarios: Scenario[],
  env: Record<string, string>,
  s: BenchSettings,
  counters: Counters,
  beside: ReferenceBeside,
): Promise<{ results: ScenarioResult[]; detail: string }> {
  if (scenarios.length === 0) return { results: [], detail: "" };
  const outcome = await openStore(name, s.databaseUrl);
  if (!outcome.ok)
    return { results: scenarios.map((sc) => empty(sc, name, "not available", outcome.reason)), detail: outcome.reason };
  const store = outcome.store;
  const results: ScenarioResult[] = [];
  let svc: RunningService | null = null;
  try {
    log(`starting the production server on ${store.detail}`);
    svc = await startService(root, store, env, s.cpuProfileDir);
    const workspaces = new Map<string, { workspaceId: string; apiKey: string }>();
    for (const sc of scenarios) {
      try {
        results.push(await runServiceScenario(sc, svc, name, workspaces, s, counters, beside));
      } catch (err) {
        results.push(empty(sc, name, "failed", (err as Error).message));
      }
    }
  } catch (err) {
    for (const sc of scenarios.slice(results.length)) results.push(empty(sc, name, "failed", (err as Error).message));
  } finally {
    await svc?.stop();
    await store.cleanup().catch((err) => log(`cleanup of ${name} failed: ${(err as Error).message}`));
  }
  return { results, detail: store.detail };
}

/** The commit measured: BENCH_REVISION, else the checkout's HEAD (with "+changes" when the tree is dirty). */
function revision(): string | null {
  if (process.env.BENCH_REVISION?.trim()) return process.env.BENCH_REVISION.trim();
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" });
  if (head.status !== 0) return null;
  const dirty = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: root, encoding: "utf8" });
  return head.stdout.trim() + (dirty.stdout.trim() ? "+changes" : "");
}

/** Responses whose status is not the scenario's expected one (200 unless it says otherwise). */
function unexpectedResponses(r: ScenarioResult): number {
  return r.figures ? unexpectedStatuses(r.figures, SCENARIOS.find((sc) => sc.name === r.scenario)?.expectStatus) : 0;
}

/** Responses of a measurement whose status is not `expected` (a scenario's expectStatus, 200 unless it says otherwise). */
function unexpectedStatuses(f: Figures, expected = 200): number {
  return Object.entries(f.statusCodes).reduce((n, [code, count]) => (code === String(expected) ? n : n + count), 0);
}

async function main(): Promise<number> {
  const settings = readSettings();
  const startedAt = new Date();
  const machine = describeMachine();
  printMachine(machine);
  const scenarios = selectScenarios(settings);
  const service = scenarios.filter((sc) => sc.target === "service");
  if (service.length > 0 && settings.stores.length > 0) ensureBuild(root);

  const inProcess = selectInProcess(settings);
  const prepared = new Map<string, Prepared>();
  const results: ScenarioResult[] = [];
  let inProcessResults: InProcessResult[] = [];
  const stores: Record<string, string> = {};
  let referenceServer: ReferenceServer | null = null;
  try {
    for (const sc of [...scenarios, ...inProcess]) if (sc.prepare) prepared.set(sc.name, await sc.prepare());
    const env = Object.assign({}, ...[...prepared.values()].map((p) => p.env ?? {})) as Record<string, string>;
    const counters: Counters = new Map([...prepared].map(([name, p]) => [name, p.counters]));
    const references = scenarios.filter((sc) => sc.target === "reference");
    if (references.length > 0) {
      try {
        referenceServer = await startReferenceServer(settings, env);
        results.push(...(await runReferences(references, referenceServer, settings, counters)));
      } catch (err) {
        for (const sc of references) results.push(empty(sc, null, "failed", (err as Error).message));
      }
    }
    const measuredFirst = (name: string) => {
      const first = results.find((r) => r.scenario === name && r.store === null);
      return first?.status === "measured" ? references.find((r) => r.name === name) : undefined;
    };
    const beside: ReferenceBeside = {
      available: (name) => referenceServer !== null && measuredFirst(name) !== undefined,
      warm: async (name) => {
        const sc = measuredFirst(name);
        if (!referenceServer || !sc) return false;
        return referenceServer.warm(sc).then(
          () => true,
          () => false,
        );
      },
      slice: async (name, seconds) => {
        const sc = measuredFirst(name);
        if (!referenceServer || !sc) return null;
        const f = await referenceServer.slice(sc, seconds, counters).catch(() => null);
        const clean =
          f !== null &&
          f.totalRequests > 0 &&
          f.errors === 0 &&
          f.timeouts === 0 &&
          unexpectedStatuses(f, sc.expectStatus) === 0;
        return clean ? f : null;
      },
    };
    inProcessResults = await runInProcess(inProcess, prepared);
    for (const name of settings.stores) {
      const r = await runStore(name, service, env, settings, counters, beside);
      stores[name] = r.detail;
      results.push(...r.results);
    }
  } finally {
    await referenceServer?.stop();
    for (const p of new Set(prepared.values())) await p.teardown?.().catch(() => undefined);
  }

  // Against the reference measured just before the scenario; the run's first measurement of it when that failed.
  for (const r of results) {
    const ref = r.referenceBeside ?? (r.reference ? results.find((x) => x.scenario === r.reference)?.figures : null);
    if (r.figures && ref && ref.requestsPerSecond > 0)
      r.ratioToReference = r.figures.requestsPerSecond / ref.requestsPerSecond;
  }
  console.log("");
  printMachine(machine);
  console.log(`revision: ${revision() ?? "unknown"}`);
  console.log(
    `settings: ${settings.duration} s per scenario after ${settings.warmup} s warm-up (with a reference: ${settings.rounds} slices, each after a slice of the reference), ${settings.connections} connections, pipelining ${settings.pipelining}`,
  );
  console.log("");
  printTable(results);
  if (inProcessResults.length > 0) {
    console.log("");
    printInProcess(inProcessResults);
  }
  for (const r of results)
    if (r.reason && r.status !== "not available")
      console.log(`note: ${r.scenario}${r.store ? ` on ${r.store}` : ""}: ${r.reason}`);
  for (const r of results) {
    if (unexpectedResponses(r) > 0)
      console.log(
        `note: ${r.scenario}${r.store ? ` on ${r.store}` : ""}: unexpected statuses ${JSON.stringify(r.figures!.statusCodes)}`,
      );
  }
  const { databaseUrl, ...shown } = settings;
  void databaseUrl; // may carry a password; the stores' details name host and schema instead
  const rev = revision();
  const file = writeResults(
    root,
    {
      startedAt: startedAt.toISOString(),
      revision: rev,
      machine,
      settings: shown,
      stores,
      results,
      inProcess: inProcessResults,
    },
    startedAt,
  );
  console.log(`\nresults: ${path.relative(root, file)}`);
  const bad =
    results.some((r) => r.status === "failed" || (r.figures && (unexpectedResponses(r) > 0 || r.figures.errors > 0))) ||
    inProcessResults.some((r) => r.status === "failed");
  return bad ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);

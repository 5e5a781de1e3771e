// One measurement: autocannon at saturation against a scenario, with the path (and body) rotating per request.
import os from "node:os";
import autocannon from "autocannon";
import { groupCpuSeconds } from "./cpu";
import { requestFor, type Scenario } from "./scenarios";

export interface LoadOptions {
  /** Server origin, e.g. http://127.0.0.1:4000. */
  origin: string;
  /** Prefix before the scenario's path ("/v1" for the service, "" for the reference). */
  prefix: string;
  headers: Record<string, string>;
  seconds: number;
  connections: number;
  pipelining: number;
  /** Process group of the server, to measure its CPU time per request. */
  serverPgid?: number;
  /**
   * Continues the scenario's rotation of paths and bodies where the last measurement with the same key stopped
   * (a measurement in slices: bench/run.ts), instead of starting again at its first request.
   */
  sequence?: string;
}

const sequences = new Map<string, number>();

export interface Figures {
  requestsPerSecond: number;
  totalRequests: number;
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  seconds: number;
  /** Service scenarios: units the ledger charged for the measured run (given back afterwards). */
  unitsCharged?: number;
  /** Server CPU (user+system, all its processes) per completed request; null off Linux. */
  serverCpuMsPerRequest: number | null;
  /** 1-minute load average before and after the run: other work on the machine skews the figures. */
  loadAverage: { before: number; after: number };
  /** Calls the local fake upstreams received per completed request, by source; absent without a fake. */
  upstreamCallsPerRequest?: Record<string, number>;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export async function measure(s: Scenario, o: LoadOptions): Promise<Figures> {
  let counter = o.sequence ? (sequences.get(o.sequence) ?? 0) : 0;
  const loadBefore = os.loadavg()[0]!;
  const cpuBefore = groupCpuSeconds(o.serverPgid);
  const headers: Record<string, string> = { accept: "application/json", ...o.headers };
  if (s.body !== undefined) headers["content-type"] = "application/json";
  const result = await autocannon({
    url: o.origin,
    connections: o.connections,
    pipelining: o.pipelining,
    duration: o.seconds,
    timeout: 30,
    headers,
    requests: [
      {
        method: s.method,
        setupRequest: (req) => {
          const r = requestFor(s, counter++);
          req.method = r.method;
          req.path = o.prefix + r.path;
          if (r.body !== undefined) req.body = r.body;
          return req;
        },
      },
    ],
  });
  const cpuAfter = groupCpuSeconds(o.serverPgid);
  if (o.sequence) sequences.set(o.sequence, counter);
  const cpuMs =
    cpuBefore !== null && cpuAfter !== null && result.requests.total > 0
      ? ((cpuAfter - cpuBefore) * 1000) / result.requests.total
      : null;
  const statusCodes: Record<string, number> = {};
  for (const [code, v] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = v.count;
  return {
    requestsPerSecond: result.requests.average,
    totalRequests: result.requests.total,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      mean: result.latency.mean,
      max: result.latency.max,
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    seconds: result.duration,
    serverCpuMsPerRequest: cpuMs === null ? null : Math.round(cpuMs * 1000) / 1000,
    loadAverage: { before: round2(loadBefore), after: round2(os.loadavg()[0]!) },
  };
}

/** One request outside the load, to see whether the route exists and answers 2xx before measuring it. */
export async function probe(
  s: Scenario,
  origin: string,
  prefix: string,
  headers: Record<string, string>,
): Promise<{ status: number; code: string | null; text: string; problem: string | null }> {
  const r = requestFor(s, 0);
  const res = await fetch(origin + prefix + r.path, {
    method: r.method,
    headers: {
      accept: "application/json",
      ...(r.body !== undefined ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    body: r.body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let code: string | null = null;
  let body: unknown = null;
  try {
    body = JSON.parse(text);
    code = (body as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    // not JSON
  }
  const problem = res.status === (s.expectStatus ?? 200) && s.checkProbe ? s.checkProbe(body) : null;
  return { status: res.status, code, text: text.slice(0, 500), problem };
}

/** `measure`, plus the calls the scenario's fake upstreams received per completed request when it has any. */
export async function measureCounted(
  s: Scenario,
  o: LoadOptions,
  counters?: () => Promise<Record<string, number>>,
): Promise<Figures> {
  if (!counters) return measure(s, o);
  const before = await counters();
  const figures = await measure(s, o);
  const after = await counters();
  const per: Record<string, number> = {};
  for (const [source, n] of Object.entries(after)) {
    const delta = n - (before[source] ?? 0);
    if (delta > 0)
      per[source] = figures.totalRequests > 0 ? Math.round((delta / figures.totalRequests) * 100) / 100 : 0;
  }
  return { ...figures, upstreamCallsPerRequest: per };
}

/**
 * Slices of one scenario's measurement as one: requests, statuses and seconds summed, requests/s over the summed
 * seconds, CPU and upstream calls per request weighted by each slice's requests; latency percentiles are the worst
 * slice's (slices are not merged sample by sample), the mean weighted.
 */
export function combineFigures(slices: Figures[]): Figures {
  if (slices.length === 1) return slices[0]!;
  const sum = (f: (x: Figures) => number) => slices.reduce((n, x) => n + f(x), 0);
  const total = sum((x) => x.totalRequests);
  const seconds = sum((x) => x.seconds);
  const weighted = (f: (x: Figures) => number | null | undefined): number | null => {
    if (total === 0 || slices.some((x) => f(x) === null || f(x) === undefined)) return null;
    return sum((x) => f(x)! * x.totalRequests) / total;
  };
  const statusCodes: Record<string, number> = {};
  for (const x of slices)
    for (const [code, n] of Object.entries(x.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const worst = (k: "p50" | "p90" | "p99" | "max") => Math.max(...slices.map((x) => x.latencyMs[k]));
  const cpu = weighted((x) => x.serverCpuMsPerRequest);
  const sources = new Set(slices.flatMap((x) => Object.keys(x.upstreamCallsPerRequest ?? {})));
  const combined: Figures = {
    requestsPerSecond: seconds > 0 ? total / seconds : 0,
    totalRequests: total,
    latencyMs: {
      p50: worst("p50"),
      p90: worst("p90"),
      p99: worst("p99"),
      mean: round2(weighted((x) => x.latencyMs.mean) ?? 0),
      max: worst("max"),
    },
    non2xx: sum((x) => x.non2xx),
    errors: sum((x) => x.errors),
    timeouts: sum((x) => x.timeouts),
    statusCodes,
    seconds,
    serverCpuMsPerRequest: cpu === null ? null : Math.round(cpu * 1000) / 1000,
    loadAverage: { before: slices[0]!.loadAverage.before, after: slices.at(-1)!.loadAverage.after },
  };
  if (slices.some((x) => x.upstreamCallsPerRequest))
    combined.upstreamCallsPerRequest = Object.fromEntries(
      [...sources].map((source) => [source, round2(weighted((x) => x.upstreamCallsPerRequest?.[source] ?? 0) ?? 0)]),
    );
  return combined;
}

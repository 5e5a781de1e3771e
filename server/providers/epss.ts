// Exploit likelihood: EPSS scores (FIRST's Exploit Prediction Scoring System) for CVE ids, from the source set in
// SERVICE_EPSS_URL, which answers FIRST's API shape (`GET /data/v1/epss?cve=CVE-1,CVE-2` -> { data: [{ cve, epss,
// percentile, date }] }). Optional evidence: with no source configured, or one that fails, every score is null with
// the reason, and the lookup that asked still answers. Scores are kept per CVE for the package cache's lifetime, so
// a repeated scan asks only for CVEs it has not seen.
import { setting } from "../env";
import { TtlCache } from "./packages/cache";
import { upstreamCacheTtlMs } from "./packages/config";
import { fetchUpstream } from "./packages/http";

/** FIRST's page size: a batch of at most this many CVEs is answered in one page (and stays a short URL). */
const BATCH = 100;

export type EpssScore = {
  cve: string;
  /** Probability of exploitation activity in the next 30 days, 0..1. */
  epss: number;
  /** Rank of that probability among all scored CVEs, 0..1. */
  percentile: number;
  /** The day the score was computed (YYYY-MM-DD), when the source says. */
  date: string | null;
};

type Known = { score: EpssScore | null; fetchedAt: string };

const known = new TtlCache<Known>();

export type EpssStatus = "ok" | "partial" | "unavailable" | "not_configured";

export interface EpssLookup {
  status: EpssStatus;
  url: string | null;
  /** When the oldest answer used was fetched from the source (null when none was). */
  fetchedAt: string | null;
  /** True when every score came from the in-process cache. */
  cached: boolean;
  reason: string | null;
  /** A CVE's score, or null with why there is none. */
  scoreOf(cve: string): { score: EpssScore; reason: null } | { score: null; reason: string };
}

export function epssBaseUrl(): string | null {
  return setting("SERVICE_EPSS_URL")?.replace(/\/+$/, "") ?? null;
}

const epssUrl = (base: string, cves: string[]) => `${base}/data/v1/epss?cve=${cves.join(",")}`;

function num(v: unknown): number | null {
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : Number.NaN;
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : null;
}

function parseAnswer(body: string): EpssScore[] {
  const doc = JSON.parse(body) as { data?: unknown };
  if (!Array.isArray(doc.data)) throw new Error("no data array");
  const out: EpssScore[] = [];
  for (const row of doc.data as Array<Record<string, unknown>>) {
    const epss = num(row?.epss);
    const percentile = num(row?.percentile);
    if (typeof row?.cve !== "string" || epss === null || percentile === null) continue;
    const date = typeof row.date === "string" && /^\d{4}-\d{2}-\d{2}/.test(row.date) ? row.date.slice(0, 10) : null;
    out.push({ cve: row.cve.toUpperCase(), epss, percentile, date });
  }
  return out;
}

/** EPSS scores of the given CVE ids (any case, duplicates allowed), asking the source only for unknown ones. */
export async function lookupEpss(cveIds: Iterable<string>): Promise<EpssLookup> {
  const cves = [...new Set([...cveIds].map((c) => c.toUpperCase()))].sort();
  const base = epssBaseUrl();
  if (!base) {
    const reason = "no EPSS source is configured (SERVICE_EPSS_URL)";
    return {
      status: "not_configured",
      url: null,
      fetchedAt: null,
      cached: false,
      reason,
      scoreOf: () => ({ score: null, reason }),
    };
  }
  const scores = new Map<string, Known>();
  const missing: string[] = [];
  for (const cve of cves) {
    const hit = known.get(cve);
    if (hit) scores.set(cve, hit);
    else missing.push(cve);
  }
  const failures = new Map<string, string>();
  const batches: string[][] = [];
  for (let i = 0; i < missing.length; i += BATCH) batches.push(missing.slice(i, i + BATCH));
  await Promise.all(
    batches.map(async (batch) => {
      const r = await fetchUpstream({ source: "epss", url: epssUrl(base, batch), notFoundStatuses: [] }, parseAnswer);
      if (r.kind !== "ok") {
        const why = r.kind === "unavailable" ? r.reason : "answered not found";
        for (const cve of batch) failures.set(cve, `the EPSS source is unavailable (${why})`);
        return;
      }
      const byCve = new Map(r.value.map((s) => [s.cve, s]));
      for (const cve of batch) {
        const entry: Known = { score: byCve.get(cve) ?? null, fetchedAt: r.fetchedAt };
        known.set(cve, entry, upstreamCacheTtlMs());
        scores.set(cve, entry);
      }
    }),
  );
  const times = [...scores.values()].map((k) => k.fetchedAt).sort();
  const status: EpssStatus = failures.size === 0 ? "ok" : failures.size === cves.length ? "unavailable" : "partial";
  const firstFailure = failures.values().next().value ?? null;
  return {
    status,
    url: epssUrl(base, []).replace(/\?cve=$/, ""),
    fetchedAt: times[0] ?? null,
    cached: missing.length === 0 && cves.length > 0,
    reason: firstFailure,
    scoreOf(cve) {
      const id = cve.toUpperCase();
      const failed = failures.get(id);
      if (failed) return { score: null, reason: failed };
      const k = scores.get(id);
      if (k?.score) return { score: k.score, reason: null };
      return { score: null, reason: `the EPSS source has no score for ${id}` };
    },
  };
}

/** Forgets the remembered scores (tests and the benchmark's cold runs). */
export function clearEpssScores(): void {
  known.clear();
}

/** Ends the remembered scores' time now: the next lookup asks the source again (the benchmark's expired runs). */
export function expireEpssScores(): void {
  known.expireAll();
}

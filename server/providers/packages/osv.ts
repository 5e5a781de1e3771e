// OSV.dev's API: query (full records), querybatch (ids only) with the records fetched in parallel, and single
// records by id. Records are also kept by id and "modified" time beyond the short cache: when querybatch reports
// the same modified time, the record is reused without another fetch.
import { osvApiUrl, osvFetchConcurrency } from "./config";
import { fetchUpstream, type Fetched } from "./http";
import type { OsvVulnerability } from "./osv-types";

const MAX_PAGES = 20;
const MAX_RECORDS = 5000;
const records = new Map<string, OsvVulnerability>();

function remember(v: OsvVulnerability): void {
  if (records.size >= MAX_RECORDS) {
    const oldest = records.keys().next().value;
    if (oldest !== undefined) records.delete(oldest);
  }
  records.set(v.id, v);
}

export function osvVulnUrl(id: string): string {
  return `${osvApiUrl()}/v1/vulns/${encodeURIComponent(id)}`;
}

export function osvQueryBatchUrl(): string {
  return `${osvApiUrl()}/v1/querybatch`;
}

export async function getOsvVulnerability(id: string): Promise<Fetched<OsvVulnerability>> {
  const r = await fetchUpstream({ source: "osv", url: osvVulnUrl(id) }, (body) => {
    const v = JSON.parse(body) as OsvVulnerability;
    if (typeof v.id !== "string") throw new Error("not an OSV record");
    return v;
  });
  if (r.kind === "ok") remember(r.value);
  return r;
}

type PackageQuery = { name: string; ecosystem: string; version?: string };

/** POST /v1/query: full records for a package (optionally one version), following page tokens. */
export async function queryOsv(q: PackageQuery): Promise<Fetched<OsvVulnerability[]>> {
  const url = `${osvApiUrl()}/v1/query`;
  const out: OsvVulnerability[] = [];
  let token: string | undefined;
  let first: Fetched<unknown> | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const body = {
      package: { name: q.name, ecosystem: q.ecosystem },
      ...(q.version ? { version: q.version } : {}),
      ...(token ? { page_token: token } : {}),
    };
    const r = await fetchUpstream(
      { source: "osv", url, method: "POST", body, notFoundStatuses: [] },
      (text) => JSON.parse(text) as { vulns?: OsvVulnerability[]; next_page_token?: string },
    );
    if (r.kind !== "ok") return r.kind === "not_found" ? { kind: "unavailable", url, reason: "answered not found" } : r;
    first ??= r;
    out.push(...(r.value.vulns ?? []));
    token = r.value.next_page_token;
    if (!token) break;
  }
  const head = first as Extract<Fetched<unknown>, { kind: "ok" }>;
  return { kind: "ok", value: out, url, fetchedAt: head.fetchedAt, cached: head.cached };
}

type BatchAnswer = { results?: Array<{ vulns?: Array<{ id: string; modified: string }>; next_page_token?: string }> };

/** POST /v1/querybatch for one package: the ids and modified times of its advisories, following page tokens. */
export async function queryOsvIds(
  name: string,
  ecosystem: string,
): Promise<Fetched<Array<{ id: string; modified: string }>>> {
  const url = osvQueryBatchUrl();
  const ids: Array<{ id: string; modified: string }> = [];
  let token: string | undefined;
  let head: { fetchedAt: string; cached: boolean } | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const body = { queries: [{ package: { name, ecosystem }, ...(token ? { page_token: token } : {}) }] };
    const r = await fetchUpstream(
      { source: "osv", url, method: "POST", body, notFoundStatuses: [] },
      (text) => JSON.parse(text) as BatchAnswer,
    );
    if (r.kind !== "ok") return r.kind === "not_found" ? { kind: "unavailable", url, reason: "answered not found" } : r;
    head ??= r;
    const result = r.value.results?.[0];
    ids.push(...(result?.vulns ?? []));
    token = result?.next_page_token;
    if (!token) break;
  }
  return { kind: "ok", value: ids, url, fetchedAt: head!.fetchedAt, cached: head!.cached };
}

/** Runs fn over items with at most `limit` in flight. */
export async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Every advisory of a package, complete: ids from querybatch, then each record fetched in parallel (or reused
 * when unchanged). Any record that cannot be fetched makes the whole answer unavailable: a partial advisory list
 * would read as "fewer problems", which is worse than no answer.
 */
export async function getOsvAdvisoriesForPackage(
  name: string,
  ecosystem: string,
): Promise<Fetched<OsvVulnerability[]>> {
  const ids = await queryOsvIds(name, ecosystem);
  if (ids.kind !== "ok") return ids;
  const vulns = await getOsvRecords(ids.value);
  return vulns.kind === "ok" ? { ...ids, value: vulns.value } : vulns;
}

/**
 * The records of the listed ids, fetched in parallel (at most SERVICE_OSV_FETCH_CONCURRENCY at once), or reused
 * when remembered with the same `modified` time; unavailable as a whole when any one cannot be fetched. A record
 * gone between the listing and the fetch (not found) is left out.
 */
export async function getOsvRecords(
  refs: Array<{ id: string; modified: string }>,
): Promise<{ kind: "ok"; value: OsvVulnerability[] } | { kind: "unavailable"; url: string; reason: string }> {
  const fetched = await mapLimited(refs, osvFetchConcurrency(), async ({ id, modified }) => {
    const known = records.get(id);
    if (known && known.modified === modified) return { kind: "ok", value: known } as const;
    return getOsvVulnerability(id);
  });
  const vulns: OsvVulnerability[] = [];
  for (const f of fetched) {
    if (f.kind === "ok") vulns.push(f.value);
    else if (f.kind === "unavailable") return { kind: "unavailable", url: f.url, reason: f.reason };
    // not_found: withdrawn between the two calls; nothing to report
  }
  return { kind: "ok", value: vulns };
}

/** Forgets remembered records (tests and the benchmark's cold runs). */
export function clearOsvRecords(): void {
  records.clear();
}

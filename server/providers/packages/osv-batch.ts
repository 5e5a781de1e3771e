// OSV's querybatch for many exact package versions at once (a whole lockfile): one call per 1,000 queries, OSV's
// own limit, each query's page token followed in a further batch, then every listed record fetched in parallel and
// remembered by id and `modified` (osv.ts), so a repeated scan fetches nothing it already holds.
import { fetchUpstream } from "./http";
import { getOsvRecords, osvQueryBatchUrl } from "./osv";
import type { OsvVulnerability } from "./osv-types";

/** OSV answers at most this many queries per querybatch call. */
export const OSV_BATCH_SIZE = 1000;
const MAX_PAGES = 20;

export type VersionQuery = { ecosystem: string; name: string; version: string };

type Ref = { id: string; modified: string };
type BatchAnswer = { results?: Array<{ vulns?: Ref[]; next_page_token?: string }> };

export type VersionAdvisories =
  | {
      kind: "ok";
      /** The records listed for each query, in the order of the queries. */
      value: OsvVulnerability[][];
      url: string;
      fetchedAt: string;
      cached: boolean;
      calls: number;
    }
  | { kind: "unavailable"; url: string; reason: string };

type Pending = { index: number; token?: string };

/** Every advisory OSV lists for each exact package version, complete or not at all (a partial list misleads). */
export async function queryOsvVersions(queries: VersionQuery[]): Promise<VersionAdvisories> {
  const url = osvQueryBatchUrl();
  const refs: Ref[][] = queries.map(() => []);
  const times: string[] = [];
  let allCached = true;
  let calls = 0;
  let pending: Pending[] = queries.map((_, index) => ({ index }));
  for (let page = 0; page < MAX_PAGES && pending.length > 0; page++) {
    const chunks: Pending[][] = [];
    for (let i = 0; i < pending.length; i += OSV_BATCH_SIZE) chunks.push(pending.slice(i, i + OSV_BATCH_SIZE));
    const answers = await Promise.all(
      chunks.map((chunk) => {
        const body = {
          queries: chunk.map(({ index, token }) => {
            const q = queries[index]!;
            return {
              package: { name: q.name, ecosystem: q.ecosystem },
              version: q.version,
              ...(token ? { page_token: token } : {}),
            };
          }),
        };
        calls++;
        return fetchUpstream(
          { source: "osv", url, method: "POST", body, notFoundStatuses: [] },
          (text) => JSON.parse(text) as BatchAnswer,
        );
      }),
    );
    const next: Pending[] = [];
    for (const [c, r] of answers.entries()) {
      if (r.kind === "unavailable") return { kind: "unavailable", url, reason: r.reason };
      if (r.kind === "not_found") return { kind: "unavailable", url, reason: "answered not found" };
      times.push(r.fetchedAt);
      allCached &&= r.cached;
      const chunk = chunks[c]!;
      const results = r.value.results ?? [];
      if (results.length !== chunk.length)
        return { kind: "unavailable", url, reason: "answered a different number of results than queries" };
      chunk.forEach(({ index }, i) => {
        const result = results[i] ?? {};
        refs[index]!.push(...(result.vulns ?? []));
        if (result.next_page_token) next.push({ index, token: result.next_page_token });
      });
    }
    pending = next;
  }
  const unique = new Map<string, Ref>();
  for (const list of refs) for (const ref of list) if (typeof ref?.id === "string") unique.set(ref.id, ref);
  const records = await getOsvRecords([...unique.values()]);
  if (records.kind !== "ok") return records;
  const byId = new Map(records.value.map((v) => [v.id, v]));
  return {
    kind: "ok",
    value: refs.map((list) => [...new Set(list.map((r) => r.id))].flatMap((id) => byId.get(id) ?? [])),
    url,
    fetchedAt: times.sort()[0] ?? new Date().toISOString(),
    cached: allCached,
    calls,
  };
}

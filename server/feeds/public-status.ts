// The data sources as a customer sees them (GET /v1/sources, /dashboard/sources, the landing page): what each feed
// is, how many entries it holds, how old its data is, whether it refreshes itself and whether (and why, in words)
// its last refresh failed. Source addresses and raw error texts stay with the operator (`feeds status`): an operator
// may point a feed at an internal mirror.
import type { Db } from "../db/client";
import { feedStatus } from "./status";

export interface DataSource {
  name: string;
  description: string;
  entries: number;
  origin: "shipped" | "refreshed";
  fetched_at: string | null;
  age_seconds: number | null;
  license: string;
  attribution: string | null;
  refresh: {
    status: "ok" | "failing" | "off" | "snapshot";
    every_seconds: number | null;
    next_run_at: string | null;
    last_refreshed_at: string | null;
    last_failed_at: string | null;
    last_error: string | null;
  };
}

/**
 * The last refresh error in words a customer can read, without the source's address or the operator's details
 * (the full text stays in `feeds status`).
 */
export function publicRefreshError(raw: string | null): string | null {
  if (!raw) return null;
  const http = /HTTP (\d{3})/.exec(raw);
  if (http) return `the source answered HTTP ${http[1]}`;
  if (/timed out|timeout/i.test(raw)) return "the source did not answer in time";
  if (/exceeds the limit/i.test(raw)) return "the download was larger than allowed";
  if (/empty list/i.test(raw)) return "the source returned an empty list";
  if (
    /cannot reach|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|fetch failed|certificate|socket/i.test(
      raw,
    )
  )
    return "the source could not be reached";
  return "the downloaded data could not be read";
}

export async function dataSources(db: Db): Promise<DataSource[]> {
  const rows = await feedStatus(db);
  return rows
    .filter((r) => !r.error)
    .map((r) => {
      const failing = r.refresh.mode === "scheduled" && r.refresh.lastError !== null;
      return {
        name: r.name,
        description: r.description,
        entries: r.count,
        origin: r.origin,
        fetched_at: r.fetchedAt,
        age_seconds: r.ageSeconds,
        license: r.license,
        attribution: r.attribution,
        refresh: {
          status: r.refresh.mode === "scheduled" ? (failing ? "failing" : "ok") : r.refresh.mode,
          every_seconds: r.refresh.everySeconds,
          next_run_at: r.refresh.nextRunAt,
          last_refreshed_at: r.refresh.lastRunAt,
          last_failed_at: failing ? r.refresh.lastFailedAt : null,
          last_error: failing ? publicRefreshError(r.refresh.lastError) : null,
        },
      };
    });
}

let cached: { at: number; value: Promise<DataSource[]> } | null = null;

/** The same list, computed at most once a minute per process (the public landing page must stay cheap). */
export function dataSourcesCached(db: Db): Promise<DataSource[]> {
  if (!cached || Date.now() - cached.at > 60_000) {
    const value = dataSources(db);
    cached = { at: Date.now(), value };
    value.catch(() => (cached = null));
  }
  return cached.value;
}

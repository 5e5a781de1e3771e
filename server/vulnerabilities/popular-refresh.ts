// The popular-name lists built at refresh time (issue 25, item 5): PyPI's from the document SERVICE_PYPI_POPULAR_URL
// names, in the shape of Hugo van Kemenade's top-pypi-packages (`{ last_update, rows: [{ project, download_count }] }`).
// A refresh downloads it like a feed (server/feeds/refresh.ts: the feed timeout and size limit, gzip accepted),
// keeps the most downloaded POPULAR_TOP_N projects with their counts, and only after a good parse replaces the
// stored copy (a FeedSnapshot row, so every instance sees it), puts it in use and drops the typosquat index built
// from the old one. Any failure keeps the list in use and says why. A running process reads the stored copy on
// first use and looks again every SERVICE_FEED_RECHECK_SECONDS, which is how a refresh run by the CLI or by another
// instance's scheduled job reaches it.
import { getDb, type Db } from "../db/client";
import { feedMaxBytes, feedRecheckMs, feedTimeoutMs, scheduledFeedRefreshEnabled } from "../feeds/config";
import { maybeGunzip } from "../feeds/shipped";
import { readSnapshot, readSnapshotMeta, writeSnapshot } from "../feeds/store";
import { logger } from "../operate/log";
import type { ScheduledTask } from "../queue/scheduled";
import {
  installPopularList,
  isRefreshedPopularList,
  notePopularRefreshFailure,
  popularListFetchedAt,
  popularNameKey,
  popularNamesInfo,
  popularNamesSetting,
  popularNamesSourceUrl,
  REFRESHED_POPULAR_ECOSYSTEMS,
  type RefreshedPopularList,
} from "./popular-names";
import { forgetTyposquatIndex } from "./typosquat";
import { OSV_ECOSYSTEM, type Ecosystem } from "./versions/ecosystems";

/** Projects kept from the source, most downloaded first (top-pypi-packages publishes 15,000). */
export const POPULAR_TOP_N = 15_000;

/** The FeedSnapshot row that holds an ecosystem's refreshed list. */
export const popularSnapshotName = (eco: Ecosystem): string => `popular-names-${eco}`;

export const POPULAR_REFRESH_TASK_PREFIX = "popular-names.refresh:";
const DAY = 86_400_000;

export type PopularRefreshResult = {
  ecosystem: Ecosystem;
  ok: boolean;
  /** Names in use now (the new count on success, the kept count on failure). */
  count: number;
  /** The source's date of the list in use (ISO 8601). */
  date: string | null;
  sourceUrl: string | null;
  error: string | null;
};

type ParsedTopList = { lastUpdate: string; date: string; rows: { project: string; download_count: number }[] };

/**
 * `last_update` as ISO 8601. top-pypi-packages writes "2026-04-01 06:34:06" in UTC (its commit of that data is
 * stamped 09:34:06 +0300); a date with its own offset keeps it.
 */
function sourceDate(value: unknown): string {
  const m =
    typeof value === "string"
      ? /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(value.trim())
      : null;
  const at = m ? new Date(`${m[1]}T${m[2] ?? "00:00:00"}${m[3] ?? "Z"}`) : null;
  if (!at || Number.isNaN(at.getTime())) throw new Error(`last_update ${JSON.stringify(value)} is not a date`);
  return at.toISOString();
}

/**
 * A top-pypi-packages document: its date and the `limit` most downloaded projects, each once (PEP 503 spellings of
 * one project merged, the higher count kept). Throws on anything else, so a wrong URL never replaces a good list.
 */
export function parseTopPackages(eco: Ecosystem, raw: Buffer | string, limit = POPULAR_TOP_N): ParsedTopList {
  let doc: unknown;
  try {
    doc = JSON.parse(typeof raw === "string" ? raw : raw.toString("utf8"));
  } catch {
    throw new Error("the document is not JSON");
  }
  if (!doc || typeof doc !== "object" || !Array.isArray((doc as { rows?: unknown }).rows))
    throw new Error('the document has no "rows" list');
  const { last_update: lastUpdate, rows } = doc as { last_update?: unknown; rows: unknown[] };
  const date = sourceDate(lastUpdate);
  const valid = rows.map((row, i) => {
    const { project, download_count: count } = (row ?? {}) as { project?: unknown; download_count?: unknown };
    if (typeof project !== "string" || !project.trim() || !Number.isSafeInteger(count) || (count as number) < 0)
      throw new Error(`row ${i + 1} is not { "project": name, "download_count": whole number }`);
    return { project: project.trim(), download_count: count as number };
  });
  if (valid.length === 0) throw new Error("the document lists no projects");
  valid.sort((a, b) => b.download_count - a.download_count); // stable: the source's order among equal counts
  const seen = new Set<string>();
  const kept = valid.filter((r) => {
    const key = popularNameKey(eco, r.project);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { lastUpdate: String(lastUpdate), date, rows: kept.slice(0, limit) };
}

function toList(parsed: ParsedTopList, source: string, fetchedAt: Date): RefreshedPopularList {
  return {
    names: parsed.rows.map((r) => r.project),
    downloads: parsed.rows.map((r) => r.download_count),
    source,
    date: parsed.date,
    fetchedAt,
  };
}

function install(eco: Ecosystem, list: RefreshedPopularList): void {
  installPopularList(eco, list);
  forgetTyposquatIndex(eco);
}

async function download(url: string): Promise<Buffer> {
  const res = await fetch(url, {
    signal: AbortSignal.timeout(feedTimeoutMs()),
    headers: { "user-agent": "service-feed-refresh/1", accept: "application/json, */*" },
    redirect: "follow",
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`HTTP ${res.status} from ${url}`);
  }
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > feedMaxBytes()) throw new Error(`payload of ${declared} bytes exceeds the limit`);
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length > feedMaxBytes()) throw new Error(`payload of ${body.length} bytes exceeds the limit`);
  return maybeGunzip(body);
}

/** Why a fetch failed, in words (undici hides the cause behind "fetch failed"). */
function failure(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError") return `timed out after ${feedTimeoutMs()} ms`;
  const cause = e?.cause?.code ?? e?.cause?.message;
  return cause ? `${e.message} (${cause})` : e?.message || String(err);
}

/** Builds the ecosystem's list from its configured source now; a failure keeps the list in use. */
export async function refreshPopularNames(db: Db, eco: Ecosystem): Promise<PopularRefreshResult> {
  const url = popularNamesSourceUrl(eco);
  const kept = (error: string): PopularRefreshResult => {
    const info = popularNamesInfo(eco);
    return { ecosystem: eco, ok: false, count: info.count, date: info.date, sourceUrl: url, error };
  };
  if (!isRefreshedPopularList(eco)) return kept(`the ${OSV_ECOSYSTEM[eco]} list ships with the service`);
  if (!url) return kept(`${popularNamesSetting(eco)} is not set: there is no source to build the list from`);
  // The stored copy first, so a failure below reports (and keeps) the newest list there is.
  await loadStoredPopularList(eco, db);
  try {
    const parsed = parseTopPackages(eco, await download(url));
    const fetchedAt = new Date();
    const stored = Buffer.from(JSON.stringify({ last_update: parsed.lastUpdate, rows: parsed.rows }), "utf8");
    await writeSnapshot(db, popularSnapshotName(eco), stored, {
      fetchedAt,
      count: parsed.rows.length,
      version: parsed.date,
      sourceUrl: url,
    });
    install(eco, toList(parsed, url, fetchedAt));
    return { ecosystem: eco, ok: true, count: parsed.rows.length, date: parsed.date, sourceUrl: url, error: null };
  } catch (err) {
    const why = failure(err);
    notePopularRefreshFailure(eco, why);
    return kept(why);
  }
}

/** Refreshes every list built at refresh time (the CLI's `popular-names refresh`). */
export async function refreshAllPopularNames(db: Db): Promise<PopularRefreshResult[]> {
  const results: PopularRefreshResult[] = [];
  for (const eco of REFRESHED_POPULAR_ECOSYSTEMS) results.push(await refreshPopularNames(db, eco));
  return results;
}

let warnedStore = false;

/** Puts the stored list in use when it is newer than the one in memory. Never throws: the list in use stays. */
async function loadStoredPopularList(eco: Ecosystem, db?: Db): Promise<void> {
  try {
    const client = db ?? (await getDb());
    const name = popularSnapshotName(eco);
    const meta = await readSnapshotMeta(client, name);
    const held = popularListFetchedAt(eco);
    if (!meta || (held && meta.fetchedAt.getTime() <= held.getTime())) return;
    const snap = await readSnapshot(client, name);
    if (!snap) return;
    install(eco, toList(parseTopPackages(eco, snap.raw), snap.sourceUrl, snap.fetchedAt));
  } catch (err) {
    if (!warnedStore)
      logger().warn(
        { component: "popular-names", ecosystem: eco, err: (err as Error).message },
        "stored popular-name list could not be read; keeping the list in use",
      );
    warnedStore = true;
  }
}

type Watch = { source: string | null; first: Promise<void> | null; checkedAt: number; pending: Promise<void> | null };
const watches = new Map<Ecosystem, Watch>();

/**
 * Makes the ecosystem's refreshed list current before a check: the first call in a process reads the stored copy
 * (awaited, one query), later ones look again in the background every SERVICE_FEED_RECHECK_SECONDS. A change of
 * the configured source (set, changed or unset) drops the typosquat index built from the previous list. Shipped
 * lists need nothing and return at once.
 */
export async function popularNamesReady(eco: Ecosystem, db?: Db): Promise<void> {
  if (!isRefreshedPopularList(eco)) return;
  const source = popularNamesSourceUrl(eco);
  let watch = watches.get(eco);
  if (!watch || watch.source !== source) {
    forgetTyposquatIndex(eco);
    watch = { source, first: null, checkedAt: 0, pending: null };
    watches.set(eco, watch);
  }
  if (!source) return;
  if (!watch.first) {
    watch.checkedAt = Date.now();
    watch.first = loadStoredPopularList(eco, db);
  }
  await watch.first;
  if (watch.pending || Date.now() - watch.checkedAt < feedRecheckMs()) return;
  const w = watch;
  w.checkedAt = Date.now();
  w.pending = loadStoredPopularList(eco, db).finally(() => {
    w.pending = null;
  });
}

/**
 * The scheduled refresh of each configured list, daily (top-pypi-packages changes monthly; a day bounds how late a
 * new month is picked up), first due a day after the stored copy was fetched. Off with SERVICE_FEED_REFRESH=off,
 * like the feeds'; `npm run admin -- popular-names refresh` still works.
 */
export function popularNamesRefreshTasks(): ScheduledTask[] {
  if (!scheduledFeedRefreshEnabled()) return [];
  return REFRESHED_POPULAR_ECOSYSTEMS.filter((eco) => popularNamesSourceUrl(eco)).map((eco) => ({
    name: POPULAR_REFRESH_TASK_PREFIX + eco,
    everyMs: DAY,
    retryMs: 5 * 60_000,
    firstDueAt: async (db) => {
      const meta = await readSnapshotMeta(db, popularSnapshotName(eco)).catch(() => null);
      return new Date((meta?.fetchedAt.getTime() ?? 0) + DAY);
    },
    run: async (db) => {
      const result = await refreshPopularNames(db, eco);
      if (!result.ok) throw new Error(result.error ?? "refresh failed");
    },
  }));
}

/** Forgets what this module watches (tests, with resetRefreshedPopularLists). */
export function resetPopularWatches(): void {
  for (const eco of watches.keys()) forgetTyposquatIndex(eco);
  watches.clear();
  warnedStore = false;
}

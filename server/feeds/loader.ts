// The data of a feed, loaded once per process and kept in memory. A refreshed copy in the database wins over the
// shipped snapshot when it is at least as new; a running process looks again at most every few minutes (in the
// background, so no request waits for it), which is how a `feeds refresh` run by the CLI reaches every instance.
// The loaded data is the process's, not the bundle's (server/process-wide.ts): what start-up loads, /v1 answers from.
import { getDb } from "../db/client";
import { feedRecheckMs } from "./config";
import { processWide } from "../process-wide";
import { findFeed } from "./registry";
import { readShipped, readShippedMeta } from "./shipped";
import { readSnapshot, readSnapshotMeta, type FeedDb } from "./store";
import type { FeedDefinition, FeedState } from "./types";
import { logger } from "../operate/log";

interface Entry {
  state: FeedState<unknown>;
  /**
   * When the database is next looked at: SERVICE_FEED_RECHECK_SECONDS after the last look, read once per look. A
   * request's IP evidence asks for its feeds about fifty times, and reading the setting on each was 2 % of an
   * assessment's CPU.
   */
  recheckAt: number;
  pending: Promise<void> | null;
}

const nextRecheck = () => Date.now() + feedRecheckMs();

const entries = processWide("feed-entries", () => new Map<string, Entry>());
const warned = processWide("feed-db-warning", () => ({ db: false }));

function resolve<T>(feed: string | FeedDefinition<T>): FeedDefinition<T> {
  if (typeof feed !== "string") return feed;
  const def = findFeed(feed);
  if (!def) throw new Error(`unknown feed: ${feed}`);
  return def as FeedDefinition<T>;
}

function loadShipped<T>(def: FeedDefinition<T>): FeedState<T> {
  const { raw, fetchedAt, version } = readShipped(def as FeedDefinition<unknown>);
  const parsed = def.parse(raw);
  return {
    data: parsed.data,
    count: parsed.count,
    version: parsed.version ?? version,
    fetchedAt,
    origin: "shipped",
    sourceUrl: def.sourceUrl(),
  };
}

/** loadShipped without holding the event loop for the whole parse of a large file (def.parseAsync). */
async function loadShippedAsync<T>(def: FeedDefinition<T>): Promise<FeedState<T>> {
  if (!def.parseAsync) return loadShipped(def);
  const { raw, fetchedAt, version } = readShipped(def as FeedDefinition<unknown>);
  const parsed = await def.parseAsync(raw);
  return {
    data: parsed.data,
    count: parsed.count,
    version: parsed.version ?? version,
    fetchedAt,
    origin: "shipped",
    sourceUrl: def.sourceUrl(),
  };
}

function shippedDate(def: FeedDefinition<unknown>): number {
  const at = readShippedMeta(def.name)?.fetchedAt;
  const t = at ? Date.parse(at) : NaN;
  return Number.isNaN(t) ? 0 : t;
}

/** The refreshed snapshot from the database when it is newer than what `current` holds, else null. */
async function loadFromDb<T>(
  def: FeedDefinition<T>,
  current: FeedState<T> | null,
  db?: FeedDb,
): Promise<FeedState<T> | null> {
  try {
    const client = db ?? (await getDb());
    const meta = await readSnapshotMeta(client, def.name);
    if (!meta) return null;
    const known = current ? current.fetchedAt.getTime() : shippedDate(def as FeedDefinition<unknown>);
    if (meta.fetchedAt.getTime() < known || (current?.origin === "refreshed" && meta.fetchedAt.getTime() === known))
      return null;
    const snap = await readSnapshot(client, def.name);
    if (!snap) return null;
    const parsed = def.parse(snap.raw);
    return {
      data: parsed.data,
      count: parsed.count,
      version: parsed.version ?? snap.version,
      fetchedAt: snap.fetchedAt,
      origin: "refreshed",
      sourceUrl: snap.sourceUrl,
    };
  } catch (err) {
    // Feeds must keep answering from shipped data when the database is unreachable or a stored copy is bad.
    if (!warned.db)
      logger().warn(
        { err, component: "feeds", feed: def.name },
        "feeds: using shipped data: the stored copy could not be read (the database is unreachable, or the copy is bad)",
      );
    warned.db = true;
    return null;
  }
}

function recheckInBackground(def: FeedDefinition<unknown>, entry: Entry, db?: FeedDb): void {
  if (entry.pending || Date.now() < entry.recheckAt) return;
  entry.recheckAt = nextRecheck();
  entry.pending = loadFromDb(def, entry.state, db)
    .then((fresh) => {
      if (fresh) entry.state = fresh;
    })
    .finally(() => {
      entry.pending = null;
    });
}

const firstLoads = processWide("feed-first-loads", () => new Map<string, Promise<Entry>>());

/**
 * The current data of a feed (by name or definition). The first call in a process prefers a refreshed snapshot
 * from the database, else the shipped one; later calls answer from memory.
 */
export async function getFeed<T>(feed: string | FeedDefinition<T>, opts: { db?: FeedDb } = {}): Promise<FeedState<T>> {
  const def = resolve(feed) as FeedDefinition<unknown>;
  const entry = entries.get(def.name);
  if (entry) {
    recheckInBackground(def, entry, opts.db);
    return entry.state as FeedState<T>;
  }
  let first = firstLoads.get(def.name);
  if (!first) {
    first = (async () => {
      const fromDb = await loadFromDb(def, null, opts.db);
      const shipped = fromDb ? null : await loadShippedAsync(def);
      const existing = entries.get(def.name); // getFeedSync or a refresh may have filled it meanwhile
      if (existing) {
        if (fromDb && fromDb.fetchedAt >= existing.state.fetchedAt) existing.state = fromDb;
        return existing;
      }
      const created: Entry = { state: (fromDb ?? shipped)!, recheckAt: nextRecheck(), pending: null };
      entries.set(def.name, created);
      return created;
    })().finally(() => firstLoads.delete(def.name));
    firstLoads.set(def.name, first);
  }
  return (await first).state as FeedState<T>;
}

/**
 * Synchronous access for hot paths: memory, else the shipped snapshot (the database is then consulted in the
 * background and its copy used from the next call on).
 */
export function getFeedSync<T>(feed: string | FeedDefinition<T>): FeedState<T> {
  const def = resolve(feed);
  let entry = entries.get(def.name);
  if (!entry) {
    entry = { state: loadShipped(def) as FeedState<unknown>, recheckAt: 0, pending: null };
    entries.set(def.name, entry);
  }
  recheckInBackground(def as FeedDefinition<unknown>, entry);
  return entry.state as FeedState<T>;
}

/** Installs a state this process just refreshed, so it answers from the new data at once. */
export function setFeedState<T>(name: string, state: FeedState<T>): void {
  const entry = entries.get(name);
  if (entry) entry.state = state as FeedState<unknown>;
  else entries.set(name, { state: state as FeedState<unknown>, recheckAt: nextRecheck(), pending: null });
}

/** Forgets every loaded feed (tests, and the CLI after a refresh run by another process). */
export function resetFeedCache(): void {
  entries.clear();
  derivedCache.clear();
}

/**
 * Forgets the feeds whose data this process did not load from its shipped snapshot (a refresh, a stored copy), so
 * they load again on next use; shipped data and what is built from it stay. Tests sharing a worker call it when a
 * file ends, so a file that refreshed a feed from a fake source leaves nothing to the next.
 */
export function forgetRefreshedFeeds(): void {
  for (const [name, entry] of entries) if (entry.state.origin !== "shipped") entries.delete(name);
}

const derivedCache = processWide(
  "feed-derived",
  () => new Map<string, { sources: readonly unknown[]; value: unknown }>(),
);

/**
 * A structure built from feeds' data (an index, a lookup table), rebuilt only when one of `sources` (the feeds'
 * `data` objects) changes. Keeps per-request work to a lookup.
 */
export function derived<D>(key: string, sources: readonly unknown[], build: () => D): D {
  const hit = derivedCache.get(key);
  if (hit && hit.sources.length === sources.length && hit.sources.every((s, i) => s === sources[i]))
    return hit.value as D;
  const value = build();
  derivedCache.set(key, { sources, value });
  return value;
}

/**
 * derived() for a build that yields to the event loop while it works (a large index at start-up): the value is kept
 * exactly as derived() would keep it, so later derived() calls with the same sources find it.
 */
export async function derivedAsync<D>(key: string, sources: readonly unknown[], build: () => Promise<D>): Promise<D> {
  const hit = derivedCache.get(key);
  if (hit && hit.sources.length === sources.length && hit.sources.every((s, i) => s === sources[i]))
    return hit.value as D;
  const value = await build();
  derivedCache.set(key, { sources, value });
  return value;
}

/** When the newest data of a feed (refreshed copy in the database, else the shipped snapshot) was fetched. */
export async function feedDataDate(def: FeedDefinition<unknown>, db: FeedDb): Promise<Date> {
  const meta = await readSnapshotMeta(db, def.name).catch(() => null);
  return new Date(Math.max(meta?.fetchedAt.getTime() ?? 0, shippedDate(def)));
}

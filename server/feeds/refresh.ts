// `feeds refresh`: downloads each feed from its live source, parses it, and only then replaces the stored snapshot.
// Any failure (network, HTTP status, size, parse, a suspiciously empty list) leaves the previous data in place.
import { AppError } from "../errors";
import { feedMaxBytes, feedTimeoutMs } from "./config";
import { SOURCE_SEPARATOR } from "./definitions/ranges";
import { getFeed, setFeedState } from "./loader";
import { findFeed, listFeeds } from "./registry";
import { maybeGunzip } from "./shipped";
import { writeSnapshot, type FeedDb } from "./store";
import type { FeedDefinition } from "./types";

export interface FeedRefreshResult {
  name: string;
  ok: boolean;
  /** Entries now in use (the new count on success, the kept count on failure). */
  count: number;
  /** When the data now in use was fetched from its source. */
  fetchedAt: string | null;
  ageSeconds: number | null;
  sourceUrl: string | null;
  error: string | null;
}

/**
 * A source's URL as a failure names it (feeds status, the refresh's log): without credentials and with its query
 * left out, where a source's token is usually passed (`?key=…`).
 */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    const query = u.search ? "?…" : "";
    return `${u.protocol}//${u.host}${u.pathname}${query}`;
  } catch {
    return "the source";
  }
}

async function download(url: string): Promise<Buffer> {
  let res: Response;
  try {
    res = await fetch(url, {
      signal: AbortSignal.timeout(feedTimeoutMs()),
      headers: { "user-agent": "service-feed-refresh/1", accept: "*/*" },
      redirect: "follow",
    });
  } catch (err) {
    // undici says only "fetch failed"; the reason (ENOTFOUND, ECONNREFUSED, a certificate error) is its cause.
    if ((err as Error).name === "TimeoutError") throw err;
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code;
    const message = cause?.message;
    const why = code
      ? message && message !== code
        ? `${code} (${message})`
        : code
      : message || (err as Error).message;
    // The system's words may repeat the URL (undici: a URL with credentials cannot be fetched).
    throw new Error(`cannot reach ${shownUrl(url)}: ${why.split(url).join(shownUrl(url))}`);
  }
  if (!res.ok) throw new Error(`HTTP ${res.status} from ${shownUrl(url)}`);
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > feedMaxBytes()) throw new Error(`payload of ${declared} bytes exceeds the limit`);
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length > feedMaxBytes()) throw new Error(`payload of ${body.length} bytes exceeds the limit`);
  return maybeGunzip(body);
}

/** A feed whose list is published as several files names them space-separated; they are joined in that order. */
async function downloadAll(urls: string): Promise<Buffer> {
  const parts = urls.split(/\s+/).filter(Boolean);
  if (parts.length === 1) return download(parts[0]!);
  const bodies: Buffer[] = [];
  for (const u of parts) bodies.push(await download(u));
  return Buffer.from(bodies.map((b) => b.toString("utf8")).join(`\n${SOURCE_SEPARATOR}\n`), "utf8");
}

const age = (d: Date) => Math.max(0, Math.round((Date.now() - d.getTime()) / 1000));

async function refreshOne(db: FeedDb, def: FeedDefinition<unknown>): Promise<FeedRefreshResult> {
  const current = await getFeed(def, { db }).catch(() => null);
  const kept = (error: string, url: string | null): FeedRefreshResult => ({
    name: def.name,
    ok: false,
    count: current?.count ?? 0,
    fetchedAt: current ? current.fetchedAt.toISOString() : null,
    ageSeconds: current ? age(current.fetchedAt) : null,
    sourceUrl: url,
    error,
  });
  const url = def.sourceUrl();
  if (!url) return kept("no live source: this feed changes with a release of the service", null);
  try {
    const raw = await downloadAll(url);
    const parsed = def.parse(raw);
    if (parsed.count === 0 && (current?.count ?? 0) > 0) {
      return kept(`source returned an empty list; keeping the previous ${current!.count} entries`, url);
    }
    const fetchedAt = new Date();
    const version = parsed.version ?? null;
    await writeSnapshot(db, def.name, raw, { fetchedAt, count: parsed.count, version, sourceUrl: url });
    setFeedState(def.name, {
      data: parsed.data,
      count: parsed.count,
      version,
      fetchedAt,
      origin: "refreshed",
      sourceUrl: url,
    });
    return {
      name: def.name,
      ok: true,
      count: parsed.count,
      fetchedAt: fetchedAt.toISOString(),
      ageSeconds: 0,
      sourceUrl: url,
      error: null,
    };
  } catch (err) {
    const e = err as Error;
    const why = e.name === "TimeoutError" ? `timed out after ${feedTimeoutMs()} ms` : e.message || String(err);
    return kept(why, url);
  }
}

/** Refreshes one feed (`feed`) or all of them, one after the other, and reports each outcome. */
export async function refreshFeeds(db: FeedDb, opts: { feed?: string } = {}): Promise<FeedRefreshResult[]> {
  let defs = listFeeds();
  if (opts.feed) {
    const def = findFeed(opts.feed);
    if (!def)
      throw new AppError(
        "INVALID_REQUEST",
        `Unknown feed "${opts.feed}". Known feeds: ${defs.map((d) => d.name).join(", ")}.`,
      );
    defs = [def];
  }
  const results: FeedRefreshResult[] = [];
  for (const def of defs) results.push(await refreshOne(db, def));
  return results;
}

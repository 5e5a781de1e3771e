// One way to call a package source: a timeout on every request, a typed outcome instead of a thrown error
// (ok / not_found / unavailable with a reason), a short shared cache, and a per-source call count that the
// benchmark reports. An answer the source gave with an ETag or Last-Modified is kept with them after its time runs
// out; the next lookup asks with If-None-Match / If-Modified-Since, and a 304 renews the entry with the value already
// parsed (no body is read, nothing is parsed again, and what was derived from that value stays valid).
import { TtlCache } from "./cache";
import { upstreamCacheTtlMs, upstreamTimeoutMs } from "./config";

export type Fetched<T> =
  | { kind: "ok"; value: T; url: string; fetchedAt: string; cached: boolean }
  | { kind: "not_found"; url: string }
  | { kind: "unavailable"; url: string; reason: string };

/** What the source said identifies its answer's version (the strings as it sent them). */
type Validators = { etag?: string; lastModified?: string };

type Stored =
  | { kind: "ok"; value: unknown; fetchedAt: string; validators: Validators | null }
  | { kind: "not_found" }
  | { kind: "unavailable"; reason: string };

// Parsed (and usually trimmed) values are cached, not raw bodies: a large npm document is parsed once per version.
const cache = new TtlCache<Stored>();
const calls = new Map<string, number>();
const notModified = new Map<string, number>();

const count = (m: Map<string, number>, source: string) => m.set(source, (m.get(source) ?? 0) + 1);

function validatorsOf(res: Response): Validators | null {
  const etag = res.headers.get("etag")?.trim();
  const lastModified = res.headers.get("last-modified")?.trim();
  if (!etag && !lastModified) return null;
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}

/** The conditional headers for a GET whose expired answer carries validators; none for anything else. */
function conditionalHeaders(req: UpstreamRequest, stale: Stored | undefined): Record<string, string> {
  if ((req.method ?? "GET") !== "GET" || stale?.kind !== "ok" || !stale.validators) return {};
  const { etag, lastModified } = stale.validators;
  return { ...(etag ? { "if-none-match": etag } : {}), ...(lastModified ? { "if-modified-since": lastModified } : {}) };
}

export type UpstreamRequest = {
  /** Source name for statistics ("npm", "osv", ...). */
  source: string;
  url: string;
  method?: "GET" | "POST";
  body?: unknown;
  accept?: string;
  /** Statuses that mean "no such package/version" for this source (default 404). */
  notFoundStatuses?: number[];
};

async function load(
  req: UpstreamRequest,
  parse: (body: string) => unknown,
  stale: Stored | undefined,
): Promise<Stored> {
  count(calls, req.source);
  // A controller and a timer rather than AbortSignal.timeout(), whose transferable signal costs several times more
  // (a scan makes a thousand of these calls); the timer ends with the call.
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException("The upstream request timed out", "TimeoutError")),
    upstreamTimeoutMs(),
  );
  try {
    return await send(req, parse, stale, controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

async function send(
  req: UpstreamRequest,
  parse: (body: string) => unknown,
  stale: Stored | undefined,
  signal: AbortSignal,
): Promise<Stored> {
  const conditional = conditionalHeaders(req, stale);
  const request = () =>
    fetch(req.url, {
      method: req.method ?? "GET",
      headers: {
        accept: req.accept ?? "application/json",
        ...(req.body !== undefined ? { "content-type": "application/json" } : {}),
        ...conditional,
      },
      body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
      signal,
      redirect: "follow",
    });
  let res: Response;
  try {
    // A connection that fails before an answer is tried once more within the same timeout: a kept-alive socket
    // that the source closed just as it was reused fails so, and every call here only reads (OSV's batch query
    // is a POST that reads).
    res = await request().catch((err: unknown) => {
      if ((err as Error)?.name === "TimeoutError" || signal.aborted) throw err;
      return request();
    });
  } catch (err) {
    const name = (err as Error)?.name;
    return { kind: "unavailable", reason: name === "TimeoutError" ? "timed out" : "connection failed" };
  }
  if (res.status === 304 && stale?.kind === "ok" && Object.keys(conditional).length > 0) {
    // Unchanged since the kept answer: the same parsed value, confirmed now (a 304 may refresh the validators).
    await res.body?.cancel();
    count(notModified, req.source);
    return { ...stale, fetchedAt: new Date().toISOString(), validators: { ...stale.validators, ...validatorsOf(res) } };
  }
  if ((req.notFoundStatuses ?? [404]).includes(res.status)) {
    await res.body?.cancel();
    return { kind: "not_found" };
  }
  if (!res.ok) {
    await res.body?.cancel();
    return { kind: "unavailable", reason: `answered HTTP ${res.status}` };
  }
  let body: string;
  try {
    body = await res.text();
  } catch {
    return { kind: "unavailable", reason: "response body could not be read" };
  }
  try {
    return { kind: "ok", value: parse(body), fetchedAt: new Date().toISOString(), validators: validatorsOf(res) };
  } catch {
    return { kind: "unavailable", reason: "answered with a malformed body" };
  }
}

/**
 * Fetches an upstream answer through the cache. `parse` turns the body into the value kept (it may throw on a
 * malformed body, which makes the source unavailable); one URL must always be read with the same parse. A value is
 * the same object for as long as the source says it has not changed (304), so what is derived from it can be kept
 * beside it (a WeakMap keyed by the value); a changed answer is a new object.
 */
export async function fetchUpstream<T>(req: UpstreamRequest, parse: (body: string) => T): Promise<Fetched<T>> {
  const key = `${req.source} ${req.method ?? "GET"} ${req.url} ${req.body !== undefined ? JSON.stringify(req.body) : ""}`;
  const { value, cached } = await cache.getOrLoad(
    key,
    upstreamCacheTtlMs,
    (stale) => load(req, parse, stale),
    (v) => v.kind !== "unavailable",
  );
  if (value.kind === "ok")
    return { kind: "ok", value: value.value as T, url: req.url, fetchedAt: value.fetchedAt, cached };
  if (value.kind === "not_found") return { kind: "not_found", url: req.url };
  return { kind: "unavailable", url: req.url, reason: value.reason };
}

/** Upstream calls made per source since the last reset (cache hits are not calls). */
export function upstreamCallCounts(): Record<string, number> {
  return Object.fromEntries(calls);
}

/** Of those calls, the ones the source answered 304 Not Modified (a kept answer renewed, nothing parsed). */
export function upstreamNotModifiedCounts(): Record<string, number> {
  return Object.fromEntries(notModified);
}

export function resetUpstreamCalls(): void {
  calls.clear();
  notModified.clear();
}

/** Forgets every cached upstream answer (tests and the benchmark's cold runs). */
export function clearUpstreamCache(): void {
  cache.clear();
}

/** Ends every cached answer's time now, keeping each with its validators (tests and the benchmark's expired runs). */
export function expireUpstreamCache(): void {
  cache.expireAll();
}

// One way to call a package source: a timeout on every request, a typed outcome instead of a thrown error
// (ok / not_found / unavailable with a reason), a short shared cache, and a per-source call count that the
// benchmark reports.
import { TtlCache } from "./cache";
import { upstreamCacheTtlMs, upstreamTimeoutMs } from "./config";

export type Fetched<T> =
  | { kind: "ok"; value: T; url: string; fetchedAt: string; cached: boolean }
  | { kind: "not_found"; url: string }
  | { kind: "unavailable"; url: string; reason: string };

type Stored =
  { kind: "ok"; value: unknown; fetchedAt: string } | { kind: "not_found" } | { kind: "unavailable"; reason: string };

// Parsed (and usually trimmed) values are cached, not raw bodies: a large npm document is parsed once.
const cache = new TtlCache<Stored>();
const calls = new Map<string, number>();

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

async function load(req: UpstreamRequest, parse: (body: string) => unknown): Promise<Stored> {
  calls.set(req.source, (calls.get(req.source) ?? 0) + 1);
  const signal = AbortSignal.timeout(upstreamTimeoutMs());
  const send = () =>
    fetch(req.url, {
      method: req.method ?? "GET",
      headers: {
        accept: req.accept ?? "application/json",
        ...(req.body !== undefined ? { "content-type": "application/json" } : {}),
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
    res = await send().catch((err: unknown) => {
      if ((err as Error)?.name === "TimeoutError") throw err;
      return send();
    });
  } catch (err) {
    const name = (err as Error)?.name;
    return { kind: "unavailable", reason: name === "TimeoutError" ? "timed out" : "connection failed" };
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
    return { kind: "ok", value: parse(body), fetchedAt: new Date().toISOString() };
  } catch {
    return { kind: "unavailable", reason: "answered with a malformed body" };
  }
}

/**
 * Fetches an upstream answer through the cache. `parse` turns the body into the value kept (it may throw on a
 * malformed body, which makes the source unavailable); one URL must always be read with the same parse.
 */
export async function fetchUpstream<T>(req: UpstreamRequest, parse: (body: string) => T): Promise<Fetched<T>> {
  const key = `${req.source} ${req.method ?? "GET"} ${req.url} ${req.body !== undefined ? JSON.stringify(req.body) : ""}`;
  const { value, cached } = await cache.getOrLoad(
    key,
    upstreamCacheTtlMs(),
    () => load(req, parse),
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

export function resetUpstreamCalls(): void {
  calls.clear();
}

/** Forgets every cached upstream answer (tests and the benchmark's cold runs). */
export function clearUpstreamCache(): void {
  cache.clear();
}

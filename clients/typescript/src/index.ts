// Typed client of the Security and Fraud Intelligence API: openapi-fetch over the types openapi-typescript
// generated from the served OpenAPI document (src/schema.ts, `npm run client:generate`). Adds what every caller
// needs: the API key, the typed error object, the quota headers, and retries that never double-charge (a 503 is
// given back by the server, so it is retried; a request lost on the network may have been charged, so it is not).
import createClient, { type Client } from "openapi-fetch";
import { meteredOperations, type components, type paths } from "./schema.js";

export type { components, paths };
/** The error body of every non-2xx answer: `{ error: { code, message } }`. */
export type ServiceError = components["schemas"]["Error"];
export type ErrorCode = ServiceError["error"]["code"];

export interface Quota {
  limit: number;
  used: number;
  remaining: number;
  /** Start of the next UTC month, when the allowance resets. */
  reset: Date;
}

/** The four X-Service-Quota-* headers of a metered 200, or null when the response has none. */
export function readQuota(response: Response): Quota | null {
  const h = response.headers;
  const limit = h.get("x-service-quota-limit");
  if (limit === null) return null;
  return {
    limit: Number(limit),
    used: Number(h.get("x-service-quota-used")),
    remaining: Number(h.get("x-service-quota-remaining")),
    reset: new Date(h.get("x-service-quota-reset") ?? 0),
  };
}

export interface ServiceClientOptions {
  /** Base URL including /v1, e.g. "https://api.example.com/v1". */
  baseUrl: string;
  apiKey?: string;
  /** Retries after 429 and 503 (default 2). */
  retries?: number;
  /**
   * Also retry metered operations after a network failure. Off by default: such a request may already have been
   * admitted and answered, and a retry is charged again. A 429 (refused before admission) and a 503 (what was not
   * answered is given back, as a ledger row with negative units) are always retried: neither costs anything.
   */
  retryMeteredRequests?: boolean;
  /** Longest wait before one retry (default 30 000 ms); a longer Retry-After returns the response instead. */
  maxRetryDelayMs?: number;
  /** First backoff step when the response gives no Retry-After (default 500 ms, doubled per attempt). */
  baseDelayMs?: number;
  fetch?: typeof globalThis.fetch;
  /** How to wait between attempts (tests pass a recorder). */
  sleep?: (ms: number) => Promise<void>;
}

const METERED = meteredOperations.map((op) => {
  const [method, template] = op.split(" ");
  const source = template
    .replace(/\/+$/, "")
    .split("/")
    .map((seg) => (/^\{.+\}$/.test(seg) ? "[^/]+(?:/[^/]+)*?" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return { method, regex: new RegExp(`^${source}/?$`) };
});

function isMetered(method: string, url: URL, basePath: string): boolean {
  const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) || "/" : url.pathname;
  return METERED.some((m) => m.method === method && m.regex.test(path));
}

/** Retry-After as seconds or an HTTP date, in milliseconds; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function retryingFetch(opts: ServiceClientOptions): typeof globalThis.fetch {
  const send = opts.fetch ?? globalThis.fetch;
  const retries = opts.retries ?? 2;
  const maxDelay = opts.maxRetryDelayMs ?? 30_000;
  const base = opts.baseDelayMs ?? 500;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const basePath = new URL(opts.baseUrl).pathname.replace(/\/+$/, "");
  return async (input, init) => {
    const request = new Request(input, init);
    const metered = isMetered(request.method.toUpperCase(), new URL(request.url), basePath);
    const mayRepeatAdmitted = !metered || Boolean(opts.retryMeteredRequests);
    for (let attempt = 0; ; attempt++) {
      const backoff = Math.min(maxDelay, base * 2 ** attempt * (1 + Math.random() * 0.2));
      let response: Response;
      try {
        response = await send(request.clone());
      } catch (err) {
        // A network failure may have happened after the server admitted the request.
        if (attempt >= retries || !mayRepeatAdmitted) throw err;
        await sleep(backoff);
        continue;
      }
      // A 429 was refused before admission and a 503 gives its units back: retrying either costs nothing.
      const retryable = response.status === 429 || response.status === 503;
      if (!retryable || attempt >= retries) return response;
      const wait = retryAfterMs(response.headers.get("retry-after")) ?? backoff;
      if (wait > maxDelay) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}

export type ServiceClient = Client<paths>;

/**
 * Creates a typed client. Every call returns `{ data, error, response }`: `error` is the typed ServiceError on a
 * non-2xx answer, and `readQuota(response)` gives the allowance after a metered call.
 *
 *   const api = createServiceClient({ baseUrl: "http://localhost:3000/v1", apiKey });
 *   const { data, error, response } = await api.GET("/ip/{ip}/geo", { params: { path: { ip: "8.8.8.8" } } });
 */
export function createServiceClient(opts: ServiceClientOptions): ServiceClient {
  return createClient<paths>({
    baseUrl: opts.baseUrl.replace(/\/+$/, ""),
    headers: opts.apiKey ? { Authorization: `Bearer ${opts.apiKey}` } : undefined,
    fetch: retryingFetch(opts),
  });
}

// HTTP(S) requests to user-supplied URLs through the SSRF guard: every hop (the first and each redirect) is resolved
// and vetted before it is requested, connections go only to the vetted addresses, and redirects, time and response
// size are bounded. A redirect to a forbidden address stops the chain and is reported, not followed.
import { maxRedirects as cfgMaxRedirects, maxResponseBytes, requestTimeoutMs } from "./config";
import { requestHop, type HopTiming, type TlsInfo } from "./http-hop";
import { targetForbidden, vetTarget, type VetOptions } from "./ssrf";
import { parseTargetUrl, type TargetUrl } from "./target";

/** Ports browsers refuse to fetch (WHATWG Fetch "bad port"): speaking HTTP to them is a protocol-smuggling vector. */
const BAD_PORTS = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** True for ports that must never be spoken HTTP to (WHATWG Fetch "bad port" list). */
export const isBadHttpPort = (port: number) => BAD_PORTS.has(port);

export type FetchHop = {
  url: string;
  status: number | null;
  location: string | null;
  address: string | null;
  timing: HopTiming | null;
};

export type FetchErrorKind = "dns" | "connect" | "tls" | "timeout" | "protocol";

export type SafeFetchResult = {
  outcome: "ok" | "blocked_redirect" | "too_many_redirects" | "error";
  requestedUrl: string;
  /** The URL of the last response received (or attempted). */
  finalUrl: string;
  status: number | null;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  address: string | null;
  tls: TlsInfo | null;
  timing: HopTiming | null;
  /** Every request made, in order; the last one is the final response. */
  hops: FetchHop[];
  error: { kind: FetchErrorKind; message: string } | null;
  blockedRedirect: { url: string; reason: string } | null;
  resolver: string | null;
  /** The host name does not exist (NXDOMAIN or no addresses), as opposed to a resolver failure. */
  dnsNotFound: boolean;
};

export type SafeFetchOptions = VetOptions & {
  method?: "GET" | "HEAD" | "POST";
  headers?: Record<string, string>;
  /** Request body (POST); dropped when a redirect turns the request into a GET, kept on 307 and 308. */
  body?: string | Buffer;
  maxRedirects?: number;
  timeoutMs?: number;
  maxBytes?: number;
  /** false: a bad certificate does not fail the request, it is reported in `tls`. */
  verifyTls?: boolean;
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function classifyError(err: unknown): { kind: FetchErrorKind; message: string } {
  const e = err as NodeJS.ErrnoException & { name?: string };
  const code = e.code ?? "";
  if (e.name === "AbortError" || e.name === "TimeoutError" || code === "ETIMEDOUT" || code === "ABORT_ERR") {
    return { kind: "timeout", message: "timed out before the server answered" };
  }
  if (
    /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code) ||
    /SSL|TLS|certificate/i.test(e.message ?? "")
  ) {
    return { kind: "tls", message: `TLS failure: ${code || e.message}` };
  }
  if (["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "EPIPE"].includes(code)) {
    return { kind: "connect", message: `connection failed (${code})` };
  }
  return { kind: "protocol", message: `request failed (${code || e.message || "unknown error"})` };
}

/** Vets and parses an initial URL; throws TARGET_FORBIDDEN for a forbidden scheme, port or address. */
export function parseFetchUrlOrThrow(input: string): TargetUrl {
  const u = parseTargetUrl(input);
  if (!u) throw targetForbidden(`${input.slice(0, 200)} is not an absolute http(s) URL without credentials`);
  if (BAD_PORTS.has(u.effectivePort)) throw targetForbidden(`port ${u.effectivePort} is not an HTTP port`);
  return u;
}

export async function safeFetch(input: string, opts: SafeFetchOptions = {}): Promise<SafeFetchResult> {
  const first = parseFetchUrlOrThrow(input);
  const limit = opts.maxRedirects ?? cfgMaxRedirects();
  const signal = AbortSignal.timeout(opts.timeoutMs ?? requestTimeoutMs());
  const hops: FetchHop[] = [];
  const result: SafeFetchResult = {
    outcome: "error",
    requestedUrl: first.url.href,
    finalUrl: first.url.href,
    status: null,
    headers: {},
    body: Buffer.alloc(0),
    truncated: false,
    address: null,
    tls: null,
    timing: null,
    hops,
    error: null,
    blockedRedirect: null,
    resolver: null,
    dnsNotFound: false,
  };
  let current = first;
  let method = opts.method ?? "GET";
  let body = opts.body;
  for (let hop = 0; ; hop++) {
    const vet = await vetTarget(current.port ? `${bracket(current.host)}:${current.port}` : current.host, opts);
    if (vet.kind === "forbidden") {
      if (hop === 0) throw targetForbidden(vet.reason);
      result.outcome = "blocked_redirect";
      result.blockedRedirect = { url: current.url.href, reason: vet.reason };
      return result;
    }
    result.finalUrl = current.url.href;
    if (vet.kind === "unresolved") {
      result.resolver = vet.resolver;
      hops.push({ url: current.url.href, status: null, location: null, address: null, timing: null });
      result.error = { kind: "dns", message: vet.reason };
      result.dnsNotFound = vet.notFound;
      return result;
    }
    result.resolver = vet.target.resolver;
    let res;
    try {
      res = await requestHop(current, vet.target, {
        method,
        headers: opts.headers ?? {},
        body,
        maxBytes: opts.maxBytes ?? maxResponseBytes(),
        verifyTls: opts.verifyTls ?? true,
        signal,
      });
    } catch (err) {
      hops.push({ url: current.url.href, status: null, location: null, address: null, timing: null });
      result.error = signal.aborted
        ? { kind: "timeout", message: "timed out before the server answered" }
        : classifyError(err);
      return result;
    }
    res.timing.dnsMs = vet.target.dnsMs;
    res.timing.totalMs = Math.round((res.timing.totalMs + vet.target.dnsMs) * 10) / 10;
    const location = res.headers.location ?? null;
    hops.push({ url: current.url.href, status: res.status, location, address: res.address, timing: res.timing });
    Object.assign(result, {
      status: res.status,
      headers: res.headers,
      body: res.body,
      truncated: res.truncated,
      address: res.address,
      tls: res.tls,
      timing: res.timing,
    });
    if (!REDIRECTS.has(res.status) || !location) {
      result.outcome = "ok";
      return result;
    }
    if (hop >= limit) {
      result.outcome = "too_many_redirects";
      return result;
    }
    let next: TargetUrl | null = null;
    let nextHref = location;
    try {
      nextHref = new URL(location, current.url).href;
      next = parseTargetUrl(nextHref);
    } catch {
      next = null;
    }
    if (!next || BAD_PORTS.has(next.effectivePort)) {
      result.outcome = "blocked_redirect";
      result.blockedRedirect = {
        url: nextHref.slice(0, 500),
        reason: next ? `port ${next.effectivePort} is not an HTTP port` : "not an http(s) URL",
      };
      return result;
    }
    // As browsers do: 303 always, and 301/302 after a POST, continue as a GET without the body.
    if (
      (res.status === 303 && method !== "HEAD") ||
      (method === "POST" && (res.status === 301 || res.status === 302))
    ) {
      method = "GET";
      body = undefined;
    }
    current = next;
  }
}

const bracket = (host: string) => (host.includes(":") ? `[${host}]` : host);

// GET /host/{host}/status: an HTTPS request to the host (plain HTTP when HTTPS cannot connect and no port was
// given), following redirects through the SSRF guard, with timing, the redirect chain and the notable headers.
import { STATUS_CODES } from "node:http";
import { AppError } from "../errors";
import { parseHostAndPort, safeFetch, type SafeFetchResult } from "../net";
import { hostTimeoutMs } from "./connection-errors";
import type { StatusResult } from "./schemas";

const SECURITY_HEADERS: [keyof NonNullable<StatusResult["headers"]>, string][] = [
  ["strictTransportSecurity", "strict-transport-security"],
  ["contentSecurityPolicy", "content-security-policy"],
  ["xContentTypeOptions", "x-content-type-options"],
  ["referrerPolicy", "referrer-policy"],
];

function cdnFromHeaders(h: Record<string, string>): string | null {
  if (h["cf-ray"]) return "Cloudflare";
  if (h["x-amz-cf-id"]) return "Amazon CloudFront";
  if (h["x-served-by"]?.includes("cache-") || h["x-fastly-request-id"]) return "Fastly";
  if (h["x-akamai-transformed"] || /akamai/i.test(h.server ?? "")) return "Akamai";
  if (h["x-vercel-id"]) return "Vercel";
  if (h["x-nf-request-id"]) return "Netlify";
  if (h["x-azure-ref"]) return "Azure Front Door";
  if (/^gws|^ESF$/i.test(h.server ?? "") && h["alt-svc"]) return "Google";
  return null;
}

export function notableHeaders(h: Record<string, string>): NonNullable<StatusResult["headers"]> {
  const g = (k: string) => h[k] ?? null;
  return {
    server: g("server"),
    poweredBy: g("x-powered-by"),
    contentType: g("content-type"),
    strictTransportSecurity: g("strict-transport-security"),
    contentSecurityPolicy: g("content-security-policy"),
    xFrameOptions: g("x-frame-options"),
    xContentTypeOptions: g("x-content-type-options"),
    referrerPolicy: g("referrer-policy"),
    permissionsPolicy: g("permissions-policy"),
    cacheControl: g("cache-control"),
    via: g("via"),
    cdn: cdnFromHeaders(h),
  };
}

export function toStatusResult(host: string, r: SafeFetchResult, checkedAt: string): StatusResult {
  const reachable = r.status !== null;
  const headers = reachable ? notableHeaders(r.headers) : null;
  const https = r.finalUrl.startsWith("https:");
  const missing = headers
    ? SECURITY_HEADERS.filter(
        ([k, name]) => headers[k] === null && (https || name !== "strict-transport-security"),
      ).map(([, name]) => name)
    : [];
  if (headers && headers.xFrameOptions === null && !/frame-ancestors/i.test(headers.contentSecurityPolicy ?? ""))
    missing.push("x-frame-options");
  const outcome: StatusResult["redirectOutcome"] =
    r.outcome === "blocked_redirect"
      ? "blocked"
      : r.outcome === "too_many_redirects"
        ? "too_many"
        : r.hops.length > 1
          ? "followed"
          : "none";
  return {
    host,
    requestedUrl: r.requestedUrl,
    finalUrl: r.finalUrl,
    reachable,
    status: r.status,
    statusText: r.status !== null ? (STATUS_CODES[r.status] ?? null) : null,
    ok: r.status !== null && r.status < 400,
    address: r.address,
    httpVersion: reachable ? "1.1" : null,
    tls: r.tls,
    timing: r.timing,
    redirects: r.hops,
    redirectOutcome: outcome,
    blockedRedirect: r.blockedRedirect,
    headers,
    missingSecurityHeaders: missing,
    error: r.error,
    checkedAt,
    sources: [{ name: "http-request", detail: r.resolver ? `resolved by ${r.resolver}` : null, fetchedAt: checkedAt }],
  };
}

const bracket = (h: string) => (h.includes(":") ? `[${h}]` : h);

export async function getHostStatusOrThrow(hostInput: string): Promise<StatusResult> {
  const parsed = parseHostAndPort(hostInput);
  if (!parsed) throw new AppError("INVALID_REQUEST", "host must be a host name or IP address, optionally with :port.");
  const authority = `${bracket(parsed.host)}${parsed.port ? `:${parsed.port}` : ""}`;
  const checkedAt = new Date().toISOString();
  const opts = { method: "GET" as const, verifyTls: false, timeoutMs: hostTimeoutMs(), maxBytes: 64 * 1024 };
  let r = await safeFetch(`https://${authority}/`, opts);
  // A site without HTTPS is still a status worth reporting. With an explicit port, only a server that answered but
  // did not speak TLS is retried over plain HTTP (a closed port stays an answer about that port).
  const noTls = r.error?.kind === "tls" || r.error?.kind === "protocol";
  if (r.status === null && (noTls || (!parsed.port && r.error?.kind === "connect"))) {
    r = await safeFetch(`http://${authority}/`, opts);
  }
  if (r.status === null && r.error?.kind === "dns") {
    if (r.dnsNotFound) {
      throw new AppError("DOMAIN_NOT_FOUND", `${parsed.host} does not resolve: ${r.error.message}.`);
    }
    throw new AppError("UPSTREAM_UNAVAILABLE", `Could not resolve ${parsed.host}: ${r.error.message}.`);
  }
  return toStatusResult(parsed.host, r, checkedAt);
}

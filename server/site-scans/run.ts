// One website scan: the HTTP redirect chain, the HTTPS response's headers, cookies and first page, the host's TLS
// summary, and the domain's DNS and mail posture, fetched in parallel. Every connection goes through the SSRF guard
// (safeFetch and the TLS summary vet each address and each redirect hop).
import { getHostSslOrThrow } from "../hosts/ssl";
import type { SslResult } from "../hosts/schemas";
import { safeFetch, type SafeFetchResult } from "../net";
import { scanMaxBodyBytes, scanPartTimeoutMs } from "./config";
import { testCookies } from "./cookies";
import { runDnsTests, type DnsVerdicts } from "./dns-tests";
import * as H from "./header-tests";
import { testRedirection } from "./redirection";
import { scoreVerdicts, type ScoreSummary } from "./score";
import type { ScanTestId } from "./scoring-table";
import { testSri } from "./sri";

export type ScanTarget = { url: URL; host: string };

export type ScanOutcome =
  | ({
      ok: true;
      finalUrl: string;
      redirects: { url: string; status: number | null }[];
      tls: TlsSummary;
      domain: string | null;
    } & ScoreSummary)
  | { ok: false; error: string };

export type TlsSummary = {
  connected: boolean;
  protocol: string | null;
  valid: boolean;
  issuer: string | null;
  daysLeft: number | null;
  error: string | null;
};

const withTimeout = <T>(p: Promise<T>, ms: number, fallback: T): Promise<T> =>
  Promise.race([p, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms).unref())]);

const bracket = (h: string) => (h.includes(":") ? `[${h}]` : h);

function fetchOpts() {
  return {
    verifyTls: false,
    maxBytes: scanMaxBodyBytes(),
    timeoutMs: scanPartTimeoutMs(),
    headers: { origin: H.SCAN_ORIGIN, accept: "text/html,*/*" },
  };
}

async function fetchOrNull(url: string): Promise<SafeFetchResult | null> {
  try {
    return await safeFetch(url, fetchOpts());
  } catch {
    // TARGET_FORBIDDEN on the first hop: the same host was vetted in preflight, so only a DNS change gets here.
    return null;
  }
}

async function tlsOf(host: string, port: number): Promise<SslResult | null> {
  try {
    return await getHostSslOrThrow(port === 443 ? host : `${bracket(host)}:${port}`);
  } catch {
    return null;
  }
}

function tlsVerdict(ssl: SslResult | null): H.Verdict {
  if (!ssl || !ssl.connected) return { result: "tls-not-available", detail: ssl?.error?.message ?? null };
  const c = ssl.certificate;
  if (c?.expired || ssl.chainError === "CERT_HAS_EXPIRED")
    return {
      result: "tls-expired",
      detail: c ? `The certificate expired on ${c.validTo.slice(0, 10)}.` : ssl.chainErrorReason,
    };
  if (ssl.chainError === "DEPTH_ZERO_SELF_SIGNED_CERT")
    return { result: "tls-self-signed", detail: ssl.chainErrorReason };
  if (!ssl.chainVerified || c?.notYetValid)
    return { result: "tls-invalid-chain", detail: ssl.chainErrorReason ?? ssl.chainError ?? "not valid yet" };
  if (!ssl.nameMatches) return { result: "tls-name-mismatch", detail: ssl.nameMismatchReason };
  if (ssl.protocol === "TLSv1" || ssl.protocol === "TLSv1.1")
    return { result: "tls-legacy-protocol", detail: ssl.protocol };
  if (c && c.daysLeft < 14) return { result: "tls-expiring-soon", detail: `${c.daysLeft} days left` };
  return { result: "tls-valid", detail: `${ssl.protocol}, ${c?.daysLeft ?? "?"} days left` };
}

const UNKNOWN_DNS: DnsVerdicts = {
  caa: { result: "caa-unknown", detail: "timed out" },
  dnssec: { result: "dnssec-unknown", detail: "timed out" },
  spf: { result: "spf-unknown", detail: "timed out" },
  dmarc: { result: "dmarc-unknown", detail: "timed out" },
  domain: null,
};

export async function runScan(target: ScanTarget): Promise<ScanOutcome> {
  const { url, host } = target;
  const isHttps = url.protocol === "https:";
  const httpsUrl = isHttps ? url.href : `https://${bracket(host)}/`;
  const httpUrl = isHttps ? `http://${bracket(host)}/` : url.href;
  const httpsPort = isHttps && url.port ? Number(url.port) : 443;
  const budget = scanPartTimeoutMs();
  const [http, httpsDirect, sslGuess, dns] = await Promise.all([
    fetchOrNull(httpUrl),
    fetchOrNull(httpsUrl),
    withTimeout(tlsOf(host, httpsPort), budget, null),
    withTimeout(
      runDnsTests(host).catch(() => UNKNOWN_DNS),
      budget,
      UNKNOWN_DNS,
    ),
  ]);
  // An http:// start that redirects to HTTPS elsewhere (another port than the https:// guess) is followed there.
  const redirectedToHttps = http?.status != null && http.finalUrl.startsWith("https:") ? http : null;
  const https = httpsDirect?.status != null ? httpsDirect : (redirectedToHttps ?? httpsDirect);
  const httpsOk = https?.status != null && https.finalUrl.startsWith("https:");
  const page = httpsOk ? https! : http?.status != null ? http : null;
  if (!page)
    return { ok: false, error: https?.error?.message ?? http?.error?.message ?? "The site could not be reached." };
  let ssl = sslGuess;
  if (httpsOk) {
    const final = new URL(https!.finalUrl);
    const port = final.port ? Number(final.port) : 443;
    if (final.hostname.replace(/^\[|\]$/g, "") !== host || port !== httpsPort)
      ssl = await withTimeout(tlsOf(final.hostname.replace(/^\[|\]$/g, ""), port), budget, null);
  }
  const certValid = httpsOk && (ssl ? ssl.valid : https!.tls?.authorized === true);
  const h = page.headers;
  const hsts = H.testHsts(h, { reachable: httpsOk, certValid });
  const hstsProtected = httpsOk && !!H.parseHsts(h["strict-transport-security"] ?? "");
  const cookieHeaders = [page.headers["set-cookie"], page !== http ? http?.headers["set-cookie"] : undefined].filter(
    (x): x is string => !!x,
  );
  const verdicts: { id: ScanTestId; verdict: H.Verdict }[] = [
    { id: "redirection", verdict: testRedirection(http, certValid) },
    { id: "strict-transport-security", verdict: hsts },
    { id: "content-security-policy", verdict: H.testCsp(h) },
    { id: "x-frame-options", verdict: H.testFraming(h) },
    { id: "x-content-type-options", verdict: H.testNosniff(h) },
    { id: "referrer-policy", verdict: H.testReferrer(h) },
    { id: "cookies", verdict: testCookies(cookieHeaders, hstsProtected).verdict },
    { id: "cross-origin-resource-sharing", verdict: H.testCors(h) },
    {
      id: "subresource-integrity",
      verdict: testSri(h["content-type"], page.body.toString("utf8"), page.finalUrl).verdict,
    },
    { id: "cross-origin-opener-policy", verdict: H.testCoop(h) },
    { id: "cross-origin-resource-policy", verdict: H.testCorp(h) },
    { id: "cross-origin-embedder-policy", verdict: H.testCoep(h) },
    {
      id: "tls",
      verdict: httpsOk ? tlsVerdict(ssl) : { result: "tls-not-available", detail: https?.error?.message ?? null },
    },
    { id: "dns-caa", verdict: dns.caa },
    { id: "dnssec", verdict: dns.dnssec },
    { id: "email-spf", verdict: dns.spf },
    { id: "email-dmarc", verdict: dns.dmarc },
  ];
  return {
    ok: true,
    ...scoreVerdicts(verdicts),
    finalUrl: page.finalUrl,
    redirects: (http?.hops ?? []).map((x) => ({ url: x.url, status: x.status })),
    tls: {
      connected: ssl?.connected ?? false,
      protocol: ssl?.protocol ?? null,
      valid: ssl?.valid ?? false,
      issuer: ssl?.certificate?.issuer?.commonName ?? null,
      daysLeft: ssl?.certificate?.daysLeft ?? null,
      error: ssl?.error?.message ?? ssl?.chainErrorReason ?? ssl?.nameMismatchReason ?? null,
    },
    domain: dns.domain,
  };
}

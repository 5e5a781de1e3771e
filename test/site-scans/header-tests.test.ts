// The header, cookie and redirection tests of a scan, table-driven: each row is an input, the result the test must
// pick and whether that result is a bonus, neutral or a penalty. The points are never written here: they come from
// the scoring table (server/site-scans/scoring-table.ts) through the scorer, and the rows check the table's own
// ordering where it matters (unsafe-inline costs more than unsafe-eval, an invalid __Host- cookie costs more than a
// valid one, ...), so a wrong result, a wrong sign or a reordered table fails.
import { describe, expect, it } from "vitest";
import type { SafeFetchResult } from "../../server/net/safe-fetch";
import { testCookies } from "../../server/site-scans/cookies";
import {
  SCAN_ORIGIN,
  testCoep,
  testCoop,
  testCorp,
  testCors,
  testCsp,
  testFraming,
  testHsts,
  testNosniff,
  testReferrer,
  type Verdict,
} from "../../server/site-scans/header-tests";
import { testRedirection } from "../../server/site-scans/redirection";
import { scoreVerdicts } from "../../server/site-scans/score";
import { BONUS_THRESHOLD, START_SCORE, outcomeOf, type ScanTestId } from "../../server/site-scans/scoring-table";

type Kind = "bonus" | "neutral" | "penalty";
type Row = {
  name: string;
  id: ScanTestId;
  verdict: () => Verdict;
  result: string;
  kind: Kind;
  /** Results of the same test this row's result must cost more points than (a worse outcome). */
  worseThan?: string[];
};

const GOOD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; object-src 'none'; frame-ancestors 'none'";
const https = { reachable: true, certValid: true };
const csp = (policy: string) => () => testCsp({ "content-security-policy": policy });
const cookies =
  (lines: string[], hsts = false) =>
  () =>
    testCookies(lines, hsts).verdict;

const ROWS: Row[] = [
  // Content-Security-Policy
  {
    name: "CSP default-src 'none' and nothing unsafe",
    id: "content-security-policy",
    verdict: csp(GOOD_CSP),
    result: "csp-implemented-with-no-unsafe-default-src-none",
    kind: "bonus",
  },
  {
    name: "CSP 'self' scripts and object-src 'none'",
    id: "content-security-policy",
    verdict: csp("default-src 'self'; object-src 'none'"),
    result: "csp-implemented-with-no-unsafe",
    kind: "bonus",
  },
  {
    name: "CSP 'unsafe-inline' in script-src",
    id: "content-security-policy",
    verdict: csp("default-src 'self'; script-src 'self' 'unsafe-inline'; object-src 'none'"),
    result: "csp-implemented-with-unsafe-inline",
    kind: "penalty",
    worseThan: [
      "csp-implemented-with-unsafe-eval",
      "csp-implemented-with-unsafe-inline-in-style-src-only",
      "csp-implemented-with-no-unsafe",
    ],
  },
  {
    name: "CSP 'unsafe-inline' inherited from default-src",
    id: "content-security-policy",
    verdict: csp("default-src 'self' 'unsafe-inline'; object-src 'none'"),
    result: "csp-implemented-with-unsafe-inline",
    kind: "penalty",
  },
  {
    name: "CSP without any script policy (style-src only)",
    id: "content-security-policy",
    verdict: csp("style-src 'self'"),
    result: "csp-implemented-with-unsafe-inline",
    kind: "penalty",
  },
  {
    name: "CSP 'unsafe-inline' ignored next to a nonce",
    id: "content-security-policy",
    verdict: csp("script-src 'nonce-r4nd0m' 'unsafe-inline'; object-src 'none'"),
    result: "csp-implemented-with-no-unsafe",
    kind: "bonus",
  },
  {
    name: "CSP 'unsafe-eval' in script-src",
    id: "content-security-policy",
    verdict: csp("default-src 'self'; script-src 'self' 'unsafe-eval'; object-src 'none'"),
    result: "csp-implemented-with-unsafe-eval",
    kind: "penalty",
    worseThan: ["csp-implemented-with-no-unsafe", "csp-implemented-with-unsafe-inline-in-style-src-only"],
  },
  {
    name: "CSP wildcard default-src *",
    id: "content-security-policy",
    verdict: csp("default-src *"),
    result: "csp-implemented-with-insecure-scheme",
    kind: "penalty",
    worseThan: ["csp-implemented-with-insecure-scheme-in-passive-content-only", "csp-implemented-with-no-unsafe"],
  },
  {
    name: "CSP wildcard script-src *",
    id: "content-security-policy",
    verdict: csp("default-src 'self'; script-src *; object-src 'none'"),
    result: "csp-implemented-with-insecure-scheme",
    kind: "penalty",
  },
  {
    name: "CSP any https: origin in script-src",
    id: "content-security-policy",
    verdict: csp("default-src 'self'; script-src https:; object-src 'none'"),
    result: "csp-implemented-with-insecure-scheme",
    kind: "penalty",
  },
  {
    name: "CSP http:// script origin",
    id: "content-security-policy",
    verdict: csp("default-src 'self'; script-src http://cdn.example; object-src 'none'"),
    result: "csp-implemented-with-insecure-scheme",
    kind: "penalty",
  },
  {
    name: "CSP wildcard object-src *",
    id: "content-security-policy",
    verdict: csp("default-src 'self'; object-src *"),
    result: "csp-implemented-with-insecure-scheme",
    kind: "penalty",
  },
  {
    name: "CSP missing object-src (no default-src to fall back on)",
    id: "content-security-policy",
    verdict: csp("script-src 'self'; frame-ancestors 'none'"),
    result: "csp-implemented-with-insecure-scheme",
    kind: "penalty",
  },
  {
    name: "CSP 'strict-dynamic' makes https: in script-src harmless",
    id: "content-security-policy",
    verdict: csp("script-src 'nonce-r4nd0m' 'strict-dynamic' https:; object-src 'none'"),
    result: "csp-implemented-with-no-unsafe",
    kind: "bonus",
  },
  {
    name: "CSP images over http: only",
    id: "content-security-policy",
    verdict: csp("default-src 'self'; img-src 'self' http:; object-src 'none'"),
    result: "csp-implemented-with-insecure-scheme-in-passive-content-only",
    kind: "penalty",
  },
  {
    name: "CSP 'unsafe-inline' in style-src only",
    id: "content-security-policy",
    verdict: csp("default-src 'self'; style-src 'self' 'unsafe-inline'; object-src 'none'"),
    result: "csp-implemented-with-unsafe-inline-in-style-src-only",
    kind: "neutral",
  },
  {
    name: "CSP that cannot be parsed",
    id: "content-security-policy",
    verdict: csp("default-src 'self'; script_src 'self'"),
    result: "csp-header-invalid",
    kind: "penalty",
    worseThan: ["csp-implemented-with-unsafe-inline"],
  },
  {
    name: "CSP absent",
    id: "content-security-policy",
    verdict: () => testCsp({}),
    result: "csp-not-implemented",
    kind: "penalty",
    worseThan: ["csp-implemented-with-unsafe-inline"],
  },

  // Framing: frame-ancestors in CSP, else X-Frame-Options
  {
    name: "frame-ancestors 'none'",
    id: "x-frame-options",
    verdict: () => testFraming({ "content-security-policy": GOOD_CSP }),
    result: "x-frame-options-implemented-via-csp",
    kind: "bonus",
  },
  {
    name: "CSP without frame-ancestors and no X-Frame-Options",
    id: "x-frame-options",
    verdict: () => testFraming({ "content-security-policy": "default-src 'self'; object-src 'none'" }),
    result: "x-frame-options-not-implemented",
    kind: "penalty",
    worseThan: ["x-frame-options-sameorigin-or-deny"],
  },
  {
    name: "frame-ancestors * is no protection",
    id: "x-frame-options",
    verdict: () => testFraming({ "content-security-policy": "default-src 'self'; frame-ancestors *" }),
    result: "x-frame-options-not-implemented",
    kind: "penalty",
  },
  {
    name: "CSP without frame-ancestors, X-Frame-Options DENY",
    id: "x-frame-options",
    verdict: () => testFraming({ "content-security-policy": "default-src 'self'", "x-frame-options": "DENY" }),
    result: "x-frame-options-sameorigin-or-deny",
    kind: "neutral",
  },
  {
    name: "X-Frame-Options ALLOW-FROM (ignored by browsers)",
    id: "x-frame-options",
    verdict: () => testFraming({ "x-frame-options": "ALLOW-FROM https://a.example" }),
    result: "x-frame-options-header-invalid",
    kind: "penalty",
  },

  // HSTS, nosniff, Referrer-Policy, CORS
  {
    name: "HSTS two years with includeSubDomains and preload",
    id: "strict-transport-security",
    verdict: () => testHsts({ "strict-transport-security": "max-age=63072000; includeSubDomains; preload" }, https),
    result: "hsts-preloaded",
    kind: "bonus",
  },
  {
    name: "HSTS one day",
    id: "strict-transport-security",
    verdict: () => testHsts({ "strict-transport-security": "max-age=86400" }, https),
    result: "hsts-implemented-max-age-less-than-six-months",
    kind: "penalty",
    worseThan: ["hsts-implemented-max-age-at-least-six-months"],
  },
  {
    name: "HSTS without max-age",
    id: "strict-transport-security",
    verdict: () => testHsts({ "strict-transport-security": "includeSubDomains" }, https),
    result: "hsts-header-invalid",
    kind: "penalty",
    worseThan: ["hsts-implemented-max-age-less-than-six-months"],
  },
  {
    name: "HSTS on an invalid certificate",
    id: "strict-transport-security",
    verdict: () => testHsts({ "strict-transport-security": "max-age=63072000" }, { reachable: true, certValid: false }),
    result: "hsts-invalid-cert",
    kind: "penalty",
  },
  {
    name: "no HTTPS at all",
    id: "strict-transport-security",
    verdict: () => testHsts({}, { reachable: false, certValid: false }),
    result: "hsts-not-implemented-no-https",
    kind: "penalty",
  },
  {
    name: "X-Content-Type-Options sniff",
    id: "x-content-type-options",
    verdict: () => testNosniff({ "x-content-type-options": "sniff" }),
    result: "x-content-type-options-header-invalid",
    kind: "penalty",
    worseThan: ["x-content-type-options-nosniff"],
  },
  {
    name: "Referrer-Policy: the last known value wins",
    id: "referrer-policy",
    verdict: () => testReferrer({ "referrer-policy": "no-referrer, unsafe-url" }),
    result: "referrer-policy-unsafe",
    kind: "penalty",
    worseThan: ["referrer-policy-not-implemented"],
  },
  {
    name: "Referrer-Policy: unknown values are skipped",
    id: "referrer-policy",
    verdict: () => testReferrer({ "referrer-policy": "strict-origin, made-up" }),
    result: "referrer-policy-private",
    kind: "bonus",
  },
  {
    name: "Referrer-Policy with no known value",
    id: "referrer-policy",
    verdict: () => testReferrer({ "referrer-policy": "everywhere" }),
    result: "referrer-policy-header-invalid",
    kind: "penalty",
  },
  {
    name: "CORS * with credentials",
    id: "cross-origin-resource-sharing",
    verdict: () => testCors({ "access-control-allow-origin": "*", "access-control-allow-credentials": "true" }),
    result: "cross-origin-resource-sharing-implemented-with-universal-access",
    kind: "penalty",
  },
  {
    name: "CORS reflecting the scan's Origin with credentials",
    id: "cross-origin-resource-sharing",
    verdict: () => testCors({ "access-control-allow-origin": SCAN_ORIGIN, "access-control-allow-credentials": "true" }),
    result: "cross-origin-resource-sharing-implemented-with-universal-access",
    kind: "penalty",
  },
  {
    name: "CORS * without credentials",
    id: "cross-origin-resource-sharing",
    verdict: () => testCors({ "access-control-allow-origin": "*" }),
    result: "cross-origin-resource-sharing-implemented-with-public-access",
    kind: "neutral",
  },

  // Cookies
  {
    name: "valid __Host- session cookie, all SameSite",
    id: "cookies",
    verdict: cookies(["__Host-sid=a; Path=/; Secure; HttpOnly; SameSite=Lax"]),
    result: "cookies-secure-with-httponly-sessions-and-samesite",
    kind: "bonus",
  },
  {
    name: "__Host- cookie with a Domain (invalid prefix)",
    id: "cookies",
    verdict: cookies(["__Host-sid=a; Path=/; Domain=example.com; Secure; HttpOnly; SameSite=Lax"]),
    result: "cookies-invalid-prefix",
    kind: "penalty",
    worseThan: [
      "cookies-secure-with-httponly-sessions-and-samesite",
      "cookies-without-secure-flag-but-protected-by-hsts",
      "cookies-session-without-secure-flag-but-protected-by-hsts",
    ],
  },
  {
    name: "__Host- cookie without Path=/ (invalid prefix)",
    id: "cookies",
    verdict: cookies(["__Host-sid=a; Path=/app; Secure; HttpOnly; SameSite=Lax"]),
    result: "cookies-invalid-prefix",
    kind: "penalty",
  },
  {
    name: "__Host- cookie without any Path (invalid prefix)",
    id: "cookies",
    verdict: cookies(["__Host-sid=a; Secure; HttpOnly; SameSite=Lax"]),
    result: "cookies-invalid-prefix",
    kind: "penalty",
  },
  {
    name: "__Host- cookie with a Domain, behind HSTS (HSTS does not make browsers accept it)",
    id: "cookies",
    verdict: cookies(["__Host-sid=a; Path=/; Domain=example.com; Secure; HttpOnly; SameSite=Lax"], true),
    result: "cookies-invalid-prefix",
    kind: "penalty",
  },
  {
    name: "__Host- cookie without Secure, behind HSTS",
    id: "cookies",
    verdict: cookies(["__Host-sid=a; Path=/; HttpOnly; SameSite=Lax"], true),
    result: "cookies-invalid-prefix",
    kind: "penalty",
  },
  {
    name: "__Secure- cookie without Secure, behind HSTS",
    id: "cookies",
    verdict: cookies(["__Secure-id=a; Path=/; HttpOnly; SameSite=Lax"], true),
    result: "cookies-invalid-prefix",
    kind: "penalty",
  },
  {
    name: "valid __Secure- cookie with a Domain and a sub-path",
    id: "cookies",
    verdict: cookies(["__Secure-id=a; Path=/app; Domain=example.com; Secure; HttpOnly; SameSite=Lax"]),
    result: "cookies-secure-with-httponly-sessions-and-samesite",
    kind: "bonus",
  },
  {
    name: "__Host- cookie without Secure",
    id: "cookies",
    verdict: cookies(["__Host-sid=a; Path=/; HttpOnly; SameSite=Lax"]),
    result: "cookies-session-without-secure-flag",
    kind: "penalty",
    worseThan: ["cookies-without-secure-flag", "cookies-invalid-prefix"],
  },
  {
    name: "SameSite with an unknown value",
    id: "cookies",
    verdict: cookies(["theme=dark; Path=/; Secure; SameSite=Sometimes"]),
    result: "cookies-samesite-flag-invalid",
    kind: "penalty",
    worseThan: ["cookies-secure-with-httponly-sessions"],
  },
  {
    name: "SameSite=None without Secure",
    id: "cookies",
    verdict: cookies(["theme=dark; Path=/; SameSite=None"]),
    result: "cookies-samesite-flag-invalid",
    kind: "penalty",
  },
  {
    name: "session cookie without HttpOnly",
    id: "cookies",
    verdict: cookies(["sessionid=a; Path=/; Secure; SameSite=Lax"]),
    result: "cookies-session-without-httponly-flag",
    kind: "penalty",
    worseThan: ["cookies-samesite-flag-invalid"],
  },
  {
    name: "two cookies joined by Node, one without SameSite",
    id: "cookies",
    verdict: cookies([
      "__Host-sid=a; Path=/; Secure; HttpOnly; SameSite=Lax, theme=dark; Path=/; Secure; Expires=Wed, 21 Oct 2037 07:28:00 GMT",
    ]),
    result: "cookies-secure-with-httponly-sessions",
    kind: "neutral",
  },
  { name: "no cookies", id: "cookies", verdict: cookies([]), result: "cookies-not-found", kind: "neutral" },

  // Cross-origin policies
  {
    name: "COOP same-origin with a report-to",
    id: "cross-origin-opener-policy",
    verdict: () => testCoop({ "cross-origin-opener-policy": 'same-origin; report-to="coop"' }),
    result: "coop-same-origin",
    kind: "bonus",
  },
  {
    name: "COOP unsafe-none counts as absent",
    id: "cross-origin-opener-policy",
    verdict: () => testCoop({ "cross-origin-opener-policy": "unsafe-none" }),
    result: "coop-not-implemented",
    kind: "neutral",
  },
  {
    name: "COOP same-site (not a COOP value)",
    id: "cross-origin-opener-policy",
    verdict: () => testCoop({ "cross-origin-opener-policy": "same-site" }),
    result: "coop-header-invalid",
    kind: "penalty",
    worseThan: ["coop-not-implemented"],
  },
  {
    name: "CORP same-site",
    id: "cross-origin-resource-policy",
    verdict: () => testCorp({ "cross-origin-resource-policy": "same-site" }),
    result: "corp-implemented-with-same-site",
    kind: "neutral",
  },
  {
    name: "CORP two values",
    id: "cross-origin-resource-policy",
    verdict: () => testCorp({ "cross-origin-resource-policy": "same-site, cross-origin" }),
    result: "corp-header-invalid",
    kind: "penalty",
    worseThan: ["corp-not-implemented"],
  },
  {
    name: "CORP require-corp (a COEP value)",
    id: "cross-origin-resource-policy",
    verdict: () => testCorp({ "cross-origin-resource-policy": "require-corp" }),
    result: "corp-header-invalid",
    kind: "penalty",
  },
  {
    name: "COEP credentialless",
    id: "cross-origin-embedder-policy",
    verdict: () => testCoep({ "cross-origin-embedder-policy": "credentialless" }),
    result: "coep-implemented",
    kind: "neutral",
  },
  {
    name: "COEP same-origin (a CORP value)",
    id: "cross-origin-embedder-policy",
    verdict: () => testCoep({ "cross-origin-embedder-policy": "same-origin" }),
    result: "coep-header-invalid",
    kind: "penalty",
    worseThan: ["coep-not-implemented"],
  },
];

/** A fetch of http://host/ as the scan's safe fetch reports it: each hop's URL, status and Location. */
function fetched(
  hops: [url: string, status: number | null, location: string | null][],
  error: SafeFetchResult["error"] = null,
): SafeFetchResult {
  const last = hops.at(-1)!;
  return {
    outcome: error ? "error" : "ok",
    requestedUrl: hops[0]![0],
    finalUrl: last[0],
    status: last[1],
    headers: {},
    body: Buffer.alloc(0),
    truncated: false,
    address: null,
    tls: null,
    timing: null,
    hops: hops.map(([url, status, location]) => ({ url, status, location, address: null, timing: null })),
    error,
    blockedRedirect: null,
    resolver: null,
    dnsNotFound: false,
  };
}

const REDIRECTS: Row[] = [
  {
    name: "301 to https on the same host",
    id: "redirection",
    verdict: () =>
      testRedirection(
        fetched([
          ["http://a.example/", 301, "https://a.example/"],
          ["https://a.example/", 200, null],
        ]),
        true,
      ),
    result: "redirection-to-https",
    kind: "neutral",
  },
  {
    name: "no listener on plain HTTP",
    id: "redirection",
    verdict: () =>
      testRedirection(fetched([["http://a.example/", null, null]], { kind: "connect", message: "refused" }), true),
    result: "redirection-not-needed-no-http",
    kind: "neutral",
  },
  {
    name: "plain HTTP serves the page",
    id: "redirection",
    verdict: () => testRedirection(fetched([["http://a.example/", 200, null]]), true),
    result: "redirection-missing",
    kind: "penalty",
    worseThan: ["redirection-to-https"],
  },
  {
    name: "first hop to another host over https",
    id: "redirection",
    verdict: () =>
      testRedirection(
        fetched([
          ["http://a.example/", 301, "https://www.a.example/"],
          ["https://www.a.example/", 200, null],
        ]),
        true,
      ),
    result: "redirection-off-host-from-http",
    kind: "penalty",
    worseThan: ["redirection-to-https"],
  },
  {
    name: "first hop stays on http",
    id: "redirection",
    verdict: () =>
      testRedirection(
        fetched([
          ["http://a.example/", 301, "http://a.example/home"],
          ["http://a.example/home", 301, "https://a.example/home"],
          ["https://a.example/home", 200, null],
        ]),
        true,
      ),
    result: "redirection-not-to-https-on-initial-redirection",
    kind: "penalty",
    worseThan: ["redirection-off-host-from-http"],
  },
  {
    name: "redirects but never to https",
    id: "redirection",
    verdict: () =>
      testRedirection(
        fetched([
          ["http://a.example/", 302, "http://a.example/home"],
          ["http://a.example/home", 200, null],
        ]),
        true,
      ),
    result: "redirection-not-to-https",
    kind: "penalty",
  },
  {
    name: "to https with an invalid certificate",
    id: "redirection",
    verdict: () =>
      testRedirection(
        fetched([
          ["http://a.example/", 301, "https://a.example/"],
          ["https://a.example/", 200, null],
        ]),
        false,
      ),
    result: "redirection-invalid-cert",
    kind: "penalty",
  },
];

describe("header, cookie and redirection tests against the scoring table", () => {
  it.each([...ROWS, ...REDIRECTS].map((r) => [r.name, r] as const))("%s", (_name, row) => {
    const verdict = row.verdict();
    expect(verdict.result).toBe(row.result);

    // The scorer gives this test the table's points for the result, with the row's sign.
    const { tests, score } = scoreVerdicts([{ id: row.id, verdict }]);
    const points = outcomeOf(row.id, row.result).points;
    expect(tests[0]).toMatchObject({ id: row.id, result: row.result, points, passed: points >= 0, counted: true });
    expect(Math.sign(points)).toBe({ bonus: 1, neutral: 0, penalty: -1 }[row.kind]);
    // Alone, a penalty takes its points off the start; a bonus counts on top (the start is above the threshold).
    expect(START_SCORE).toBeGreaterThanOrEqual(BONUS_THRESHOLD);
    expect(score).toBe(Math.max(0, START_SCORE + points));
    if (row.kind === "penalty") expect(tests[0]!.fix).toEqual(expect.any(String));

    for (const better of row.worseThan ?? [])
      expect(points, `${row.result} against ${better}`).toBeLessThan(outcomeOf(row.id, better).points);
  });

  it("an invalid prefix says in the detail which cookie breaks which rule", () => {
    const { verdict } = testCookies(
      [
        "__Host-sid=a; Path=/app; Domain=example.com; Secure; HttpOnly; SameSite=Lax, theme=dark; Path=/; Secure; SameSite=Lax",
      ],
      true,
    );
    expect(verdict).toEqual({
      result: "cookies-invalid-prefix",
      detail: "__Host-sid (Domain=example.com is set, Path=/app instead of /)",
    });
    expect(outcomeOf("cookies", "cookies-invalid-prefix").reason).toMatch(/refuse to store it/);
  });

  it("every result the rows expect is in the scoring table", () => {
    for (const r of [...ROWS, ...REDIRECTS])
      for (const result of [r.result, ...(r.worseThan ?? [])]) expect(() => outcomeOf(r.id, result)).not.toThrow();
  });
});

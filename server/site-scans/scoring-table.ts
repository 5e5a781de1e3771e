// The one scoring table of website scans, in the manner of Mozilla's HTTP Observatory. The scorer, the OpenAPI
// description and docs/scans-scoring.md are all generated from this list, so they cannot disagree.
// Points: a negative result is a penalty; a positive one is a bonus that counts only once the score after all
// penalties is at least BONUS_THRESHOLD (as the Observatory does).

export type ScanTestId =
  | "redirection"
  | "strict-transport-security"
  | "content-security-policy"
  | "x-frame-options"
  | "x-content-type-options"
  | "referrer-policy"
  | "cookies"
  | "cross-origin-resource-sharing"
  | "subresource-integrity"
  | "cross-origin-opener-policy"
  | "cross-origin-resource-policy"
  | "cross-origin-embedder-policy"
  | "tls"
  | "dns-caa"
  | "dnssec"
  | "email-spf"
  | "email-dmarc";

export type Outcome = { result: string; points: number; reason: string; fix: string | null };
export type TestDefinition = { id: ScanTestId; title: string; outcomes: Outcome[] };

export const START_SCORE = 100;
export const BONUS_THRESHOLD = 90;

const o = (result: string, points: number, reason: string, fix: string | null = null): Outcome => ({
  result,
  points,
  reason,
  fix,
});

export const SCAN_TESTS: TestDefinition[] = [
  {
    id: "redirection",
    title: "Redirection from HTTP",
    outcomes: [
      o("redirection-to-https", 0, "HTTP redirects to HTTPS on the same host first."),
      o(
        "redirection-not-needed-no-http",
        0,
        "The site does not listen on plain HTTP, so nothing can be served insecurely.",
      ),
      o(
        "redirection-off-host-from-http",
        -5,
        "HTTP redirects to another host before reaching HTTPS, so HSTS of this host is never seen.",
        "Redirect http://host/ to https://host/ first, then to other hosts.",
      ),
      o(
        "redirection-not-to-https-on-initial-redirection",
        -10,
        "The first redirect from HTTP stays on HTTP; HTTPS is reached only later.",
        "Make the first redirect go straight to https:// on the same host.",
      ),
      o(
        "redirection-not-to-https",
        -20,
        "HTTP redirects, but never to HTTPS.",
        "Redirect every HTTP request to https:// with a 301 or 308.",
      ),
      o(
        "redirection-missing",
        -20,
        "The site answers on plain HTTP without redirecting to HTTPS.",
        "Redirect every HTTP request to https:// with a 301 or 308.",
      ),
      o(
        "redirection-invalid-cert",
        -20,
        "HTTP redirects to HTTPS, but the certificate there is not valid.",
        "Install a certificate that chains to a public root and covers the host name.",
      ),
    ],
  },
  {
    id: "strict-transport-security",
    title: "HTTP Strict Transport Security",
    outcomes: [
      o("hsts-preloaded", 5, "HSTS is set for at least a year with includeSubDomains and preload."),
      o("hsts-implemented-max-age-at-least-six-months", 0, "HSTS is set with a max-age of at least six months."),
      o(
        "hsts-implemented-max-age-less-than-six-months",
        -10,
        "HSTS is set, but its max-age is shorter than six months.",
        "Use Strict-Transport-Security: max-age=31536000; includeSubDomains.",
      ),
      o(
        "hsts-not-implemented",
        -20,
        "No Strict-Transport-Security header: a first visit can be downgraded to HTTP.",
        "Send Strict-Transport-Security: max-age=31536000; includeSubDomains on HTTPS responses.",
      ),
      o(
        "hsts-header-invalid",
        -20,
        "The Strict-Transport-Security header cannot be parsed (no valid max-age).",
        "Send Strict-Transport-Security: max-age=31536000; includeSubDomains.",
      ),
      o(
        "hsts-not-implemented-no-https",
        -20,
        "The site is not reachable over HTTPS, so HSTS cannot be set.",
        "Serve the site over HTTPS, then add HSTS.",
      ),
      o(
        "hsts-invalid-cert",
        -20,
        "HSTS is ignored by browsers because the certificate is not valid.",
        "Install a valid certificate for the host name.",
      ),
    ],
  },
  {
    id: "content-security-policy",
    title: "Content Security Policy",
    outcomes: [
      o(
        "csp-implemented-with-no-unsafe-default-src-none",
        10,
        "CSP is set with default-src 'none' and no unsafe sources.",
      ),
      o("csp-implemented-with-no-unsafe", 5, "CSP is set and blocks inline scripts and eval."),
      o(
        "csp-implemented-with-unsafe-inline-in-style-src-only",
        0,
        "CSP is set; only styles may be inline, which is a small risk.",
      ),
      o(
        "csp-implemented-with-insecure-scheme-in-passive-content-only",
        -10,
        "CSP allows images or media over plain HTTP.",
        "Replace http: sources with https:.",
      ),
      o(
        "csp-implemented-with-unsafe-eval",
        -10,
        "CSP allows 'unsafe-eval' in scripts.",
        "Remove 'unsafe-eval' from script-src; replace calls to eval and new Function.",
      ),
      o(
        "csp-implemented-with-unsafe-inline",
        -20,
        "CSP allows inline scripts ('unsafe-inline'), which defeats its protection against XSS.",
        "Remove 'unsafe-inline' from script-src; use nonces or hashes.",
      ),
      o(
        "csp-implemented-with-insecure-scheme",
        -20,
        "CSP allows scripts or other active content over plain HTTP, or from any origin (*).",
        "Allow only https: origins you trust in script-src, object-src and default-src.",
      ),
      o(
        "csp-header-invalid",
        -25,
        "The Content-Security-Policy header cannot be parsed.",
        "Fix the syntax: directives separated by ';', each a name then sources.",
      ),
      o(
        "csp-not-implemented",
        -25,
        "No Content-Security-Policy header.",
        "Start with Content-Security-Policy: default-src 'self'; object-src 'none'; frame-ancestors 'none'.",
      ),
    ],
  },
  {
    id: "x-frame-options",
    title: "Framing protection (X-Frame-Options)",
    outcomes: [
      o("x-frame-options-implemented-via-csp", 5, "CSP frame-ancestors controls who may frame the site."),
      o("x-frame-options-sameorigin-or-deny", 0, "X-Frame-Options is DENY or SAMEORIGIN."),
      o(
        "x-frame-options-not-implemented",
        -20,
        "Any site can frame this one (clickjacking).",
        "Send Content-Security-Policy: frame-ancestors 'none' (or X-Frame-Options: DENY).",
      ),
      o(
        "x-frame-options-header-invalid",
        -20,
        "X-Frame-Options has a value browsers ignore.",
        "Use X-Frame-Options: DENY or SAMEORIGIN, or CSP frame-ancestors.",
      ),
    ],
  },
  {
    id: "x-content-type-options",
    title: "X-Content-Type-Options",
    outcomes: [
      o("x-content-type-options-nosniff", 0, "X-Content-Type-Options is nosniff."),
      o(
        "x-content-type-options-not-implemented",
        -5,
        "Browsers may guess content types (MIME sniffing).",
        "Send X-Content-Type-Options: nosniff.",
      ),
      o(
        "x-content-type-options-header-invalid",
        -5,
        "X-Content-Type-Options has a value other than nosniff.",
        "Send X-Content-Type-Options: nosniff.",
      ),
    ],
  },
  {
    id: "referrer-policy",
    title: "Referrer-Policy",
    outcomes: [
      o("referrer-policy-private", 5, "Referrer-Policy keeps full URLs from other sites."),
      o(
        "referrer-policy-no-referrer-when-downgrade",
        0,
        "Referrer-Policy is no-referrer-when-downgrade: full URLs go to other HTTPS sites.",
      ),
      o(
        "referrer-policy-not-implemented",
        0,
        "No Referrer-Policy: browsers use strict-origin-when-cross-origin by default.",
        "Send Referrer-Policy: strict-origin-when-cross-origin.",
      ),
      o(
        "referrer-policy-unsafe",
        -5,
        "Referrer-Policy unsafe-url sends full URLs everywhere, even over HTTP.",
        "Use Referrer-Policy: strict-origin-when-cross-origin.",
      ),
      o(
        "referrer-policy-header-invalid",
        -5,
        "Referrer-Policy has no value browsers understand.",
        "Use Referrer-Policy: strict-origin-when-cross-origin.",
      ),
    ],
  },
  {
    id: "cookies",
    title: "Cookies",
    outcomes: [
      o(
        "cookies-secure-with-httponly-sessions-and-samesite",
        5,
        "Every cookie is Secure and has SameSite; session cookies are HttpOnly.",
      ),
      o("cookies-secure-with-httponly-sessions", 0, "Every cookie is Secure; session cookies are HttpOnly."),
      o("cookies-not-found", 0, "The page sets no cookies."),
      o(
        "cookies-without-secure-flag-but-protected-by-hsts",
        -5,
        "Some cookies lack Secure, though HSTS keeps them on HTTPS.",
        "Add Secure to every cookie (or use the __Host- prefix).",
      ),
      o(
        "cookies-session-without-secure-flag-but-protected-by-hsts",
        -10,
        "A session cookie lacks Secure, though HSTS keeps it on HTTPS.",
        "Add Secure to session cookies (or use the __Host- prefix).",
      ),
      o(
        "cookies-without-secure-flag",
        -20,
        "Some cookies lack Secure and can be sent over HTTP.",
        "Add Secure to every cookie.",
      ),
      o(
        "cookies-invalid-prefix",
        -20,
        "A __Host- or __Secure- cookie breaks its prefix's rules (__Host- needs Secure, Path=/ and no Domain; __Secure- needs Secure), so browsers refuse to store it and whatever it protects silently stops working.",
        "Send __Host- cookies with Secure; Path=/ and no Domain attribute (__Secure- ones with Secure), or drop the prefix.",
      ),
      o(
        "cookies-samesite-flag-invalid",
        -20,
        "A SameSite attribute has a value browsers do not know, or None without Secure.",
        "Use SameSite=Lax or Strict (None only with Secure).",
      ),
      o(
        "cookies-session-without-httponly-flag",
        -30,
        "A session cookie is readable by page scripts (no HttpOnly), so XSS can steal it.",
        "Add HttpOnly to session cookies.",
      ),
      o(
        "cookies-session-without-secure-flag",
        -40,
        "A session cookie lacks Secure and can leak over HTTP.",
        "Add Secure and HttpOnly to session cookies; prefer the __Host- prefix.",
      ),
    ],
  },
  {
    id: "cross-origin-resource-sharing",
    title: "Cross-origin resource sharing (CORS)",
    outcomes: [
      o("cross-origin-resource-sharing-not-implemented", 0, "No CORS headers: other sites cannot read responses."),
      o(
        "cross-origin-resource-sharing-implemented-with-public-access",
        0,
        "Access-Control-Allow-Origin: * without credentials: public content only.",
      ),
      o(
        "cross-origin-resource-sharing-implemented-with-universal-access",
        -50,
        "CORS allows any origin together with credentials: any site can read signed-in users' data.",
        "Allow only the origins you trust, never * or a reflected Origin with credentials.",
      ),
    ],
  },
  {
    id: "subresource-integrity",
    title: "Subresource Integrity",
    outcomes: [
      o(
        "sri-implemented-and-external-scripts-loaded-securely",
        5,
        "Every external script has an integrity hash and loads over HTTPS.",
      ),
      o("sri-not-implemented-response-not-html", 0, "The page is not HTML, so no scripts are loaded."),
      o("sri-not-implemented-but-no-scripts-loaded", 0, "The page loads no external scripts."),
      o(
        "sri-not-implemented-but-external-scripts-loaded-securely",
        -5,
        "External scripts load over HTTPS without integrity hashes: a compromised CDN could change them.",
        'Add integrity="sha384-…" and crossorigin="anonymous" to external script elements.',
      ),
      o(
        "sri-implemented-but-external-scripts-not-loaded-securely",
        -20,
        "External scripts have integrity hashes but load over plain HTTP.",
        "Load every script over https:.",
      ),
      o(
        "sri-not-implemented-and-external-scripts-not-loaded-securely",
        -50,
        "External scripts load over plain HTTP without integrity: anyone on the path can change them.",
        "Load scripts over https: with integrity hashes.",
      ),
    ],
  },
  {
    id: "cross-origin-opener-policy",
    title: "Cross-Origin-Opener-Policy",
    outcomes: [
      o("coop-same-origin", 5, "COOP same-origin isolates the page from windows it opens or that open it."),
      o("coop-same-origin-allow-popups", 0, "COOP same-origin-allow-popups isolates the page from pages that open it."),
      o("coop-not-implemented", 0, "No Cross-Origin-Opener-Policy.", "Send Cross-Origin-Opener-Policy: same-origin."),
      o(
        "coop-header-invalid",
        -5,
        "Cross-Origin-Opener-Policy has an unknown value.",
        "Use same-origin, same-origin-allow-popups or unsafe-none.",
      ),
    ],
  },
  {
    id: "cross-origin-resource-policy",
    title: "Cross-Origin-Resource-Policy",
    outcomes: [
      o(
        "corp-implemented-with-same-site",
        0,
        "CORP same-site or same-origin keeps other sites from embedding responses.",
      ),
      o("corp-implemented-with-cross-origin", 0, "CORP cross-origin: any site may embed responses."),
      o("corp-not-implemented", 0, "No Cross-Origin-Resource-Policy.", "Send Cross-Origin-Resource-Policy: same-site."),
      o(
        "corp-header-invalid",
        -5,
        "Cross-Origin-Resource-Policy has an unknown value.",
        "Use same-origin, same-site or cross-origin.",
      ),
    ],
  },
  {
    id: "cross-origin-embedder-policy",
    title: "Cross-Origin-Embedder-Policy",
    outcomes: [
      o("coep-implemented", 0, "COEP require-corp or credentialless is set."),
      o("coep-not-implemented", 0, "No Cross-Origin-Embedder-Policy (needed only for cross-origin isolation)."),
      o(
        "coep-header-invalid",
        -5,
        "Cross-Origin-Embedder-Policy has an unknown value.",
        "Use require-corp or credentialless.",
      ),
    ],
  },
  {
    id: "tls",
    title: "TLS certificate and protocol",
    outcomes: [
      o("tls-valid", 0, "The certificate is valid, covers the name and TLS 1.2 or newer is negotiated."),
      o("tls-not-available", 0, "No HTTPS connection could be made (already counted by redirection and HSTS)."),
      o(
        "tls-expiring-soon",
        -5,
        "The certificate expires within 14 days.",
        "Renew the certificate (automate renewal, e.g. ACME).",
      ),
      o(
        "tls-legacy-protocol",
        -10,
        "The server negotiates TLS 1.0 or 1.1, which browsers no longer accept.",
        "Disable TLS 1.0 and 1.1; offer TLS 1.2 and 1.3.",
      ),
      o(
        "tls-name-mismatch",
        -20,
        "The certificate does not cover this host name.",
        "Issue a certificate whose SANs include the host name.",
      ),
      o(
        "tls-expired",
        -20,
        "The certificate has expired: browsers stop at a full-page warning.",
        "Renew the certificate now and automate renewal (e.g. ACME).",
      ),
      o(
        "tls-self-signed",
        -20,
        "The certificate is self-signed: no browser trusts it, so visitors see a full-page warning.",
        "Use a certificate from a public CA (e.g. Let's Encrypt) and serve its chain.",
      ),
      o(
        "tls-invalid-chain",
        -20,
        "The certificate chain does not verify against public roots (unknown issuer, missing intermediate or not yet valid).",
        "Serve the full chain from a public CA.",
      ),
    ],
  },
  {
    id: "dns-caa",
    title: "DNS CAA",
    outcomes: [
      o("caa-implemented", 5, "CAA records name which CAs may issue certificates."),
      o(
        "caa-not-implemented",
        0,
        "No CAA record: any CA may issue certificates for the domain.",
        'Publish CAA records, e.g. 0 issue "letsencrypt.org".',
      ),
      o("caa-unknown", 0, "The CAA lookup got no answer."),
    ],
  },
  {
    id: "dnssec",
    title: "DNSSEC",
    outcomes: [
      o("dnssec-signed", 5, "The resolver validated the domain's answers with DNSSEC."),
      o(
        "dnssec-not-signed",
        0,
        "Answers are not DNSSEC-validated.",
        "Sign the zone and publish a DS record at the registrar.",
      ),
      o("dnssec-unknown", 0, "The DNSSEC check got no answer."),
    ],
  },
  {
    id: "email-spf",
    title: "Email: SPF",
    outcomes: [
      o("spf-pass", 0, "SPF is published and ends in -all or ~all."),
      o(
        "spf-weak",
        -5,
        "SPF is published but lets anyone send (+all or ?all) or has errors.",
        "End the record with -all (or ~all) and fix the reported errors.",
      ),
      o(
        "spf-missing",
        -5,
        "No SPF record: anyone can send mail as this domain.",
        "Publish v=spf1 -all if the domain sends no mail, or list your senders.",
      ),
      o("spf-unknown", 0, "The SPF lookup got no answer."),
    ],
  },
  {
    id: "email-dmarc",
    title: "Email: DMARC",
    outcomes: [
      o("dmarc-enforced", 0, "DMARC is published with p=quarantine or p=reject."),
      o(
        "dmarc-not-enforced",
        -5,
        "DMARC is published with p=none: spoofed mail is still delivered.",
        "Move to p=quarantine, then p=reject, once reports look clean.",
      ),
      o("dmarc-missing", -5, "No DMARC record.", 'Publish _dmarc.<domain> TXT "v=DMARC1; p=reject; rua=mailto:…".'),
      o("dmarc-unknown", 0, "The DMARC lookup got no answer."),
    ],
  },
];

/** Grade bands from the Observatory: the first band whose minimum the score reaches. */
export const GRADE_BANDS: { grade: string; min: number }[] = [
  { grade: "A+", min: 100 },
  { grade: "A", min: 90 },
  { grade: "A-", min: 85 },
  { grade: "B+", min: 80 },
  { grade: "B", min: 70 },
  { grade: "B-", min: 65 },
  { grade: "C+", min: 60 },
  { grade: "C", min: 50 },
  { grade: "C-", min: 45 },
  { grade: "D+", min: 40 },
  { grade: "D", min: 30 },
  { grade: "D-", min: 25 },
  { grade: "F", min: 0 },
];

export const GRADES = GRADE_BANDS.map((b) => b.grade);

const byId = new Map(SCAN_TESTS.map((t) => [t.id, t]));

export function outcomeOf(id: ScanTestId, result: string): Outcome {
  const found = byId.get(id)?.outcomes.find((x) => x.result === result);
  if (!found) throw new Error(`scoring table has no outcome ${id}/${result}`);
  return found;
}

export const titleOf = (id: ScanTestId) => byId.get(id)!.title;

export function gradeOf(score: number): string {
  return GRADE_BANDS.find((b) => score >= b.min)!.grade;
}

// Header tests of a scan: each reads the final HTTPS response's headers and picks one outcome of the scoring table.
// Header names arrive lower-cased (Node); repeated headers arrive joined with ", ".

export type Verdict = { result: string; detail: string | null };
const v = (result: string, detail: string | null = null): Verdict => ({ result, detail });

export type CspPolicy = Map<string, string[]>;

/** Parses one policy (the first if several were sent); null when no directive could be read. */
export function parseCsp(header: string): CspPolicy | null {
  const policy: CspPolicy = new Map();
  for (const part of header.split(/[;,]/)) {
    const tokens = part.trim().split(/\s+/).filter(Boolean);
    if (tokens.length === 0) continue;
    const name = tokens[0]!.toLowerCase();
    if (!/^[a-z-]+$/.test(name)) return null;
    if (!policy.has(name))
      policy.set(
        name,
        tokens.slice(1).map((t) => t.toLowerCase()),
      );
  }
  return policy.size > 0 ? policy : null;
}

const sourcesFor = (p: CspPolicy, directive: string) => p.get(directive) ?? p.get("default-src") ?? null;
const insecure = (s: string) =>
  s === "*" || s === "http:" || s.startsWith("http://") || s === "data:" || s === "https:";

export function testCsp(h: Record<string, string>): Verdict {
  const raw = h["content-security-policy"];
  if (!raw) return v("csp-not-implemented");
  const p = parseCsp(raw);
  if (!p) return v("csp-header-invalid", raw.slice(0, 300));
  const scripts = sourcesFor(p, "script-src") ?? [];
  const objects = sourcesFor(p, "object-src") ?? [];
  const styles = sourcesFor(p, "style-src") ?? [];
  const hasNonceOrHash = scripts.some((s) => /^'(nonce|sha256|sha384|sha512)-/.test(s));
  const strictDynamic = scripts.includes("'strict-dynamic'");
  const noScriptPolicy = !p.has("script-src") && !p.has("default-src");
  // 'unsafe-inline' is ignored by browsers when a nonce or hash is present (CSP level 2).
  if (noScriptPolicy || (scripts.includes("'unsafe-inline'") && !hasNonceOrHash))
    return v("csp-implemented-with-unsafe-inline", raw.slice(0, 300));
  if (
    !strictDynamic &&
    (scripts.some(insecure) || (objects.length > 0 && objects.some(insecure)) || !sourcesFor(p, "object-src"))
  ) {
    return v("csp-implemented-with-insecure-scheme", raw.slice(0, 300));
  }
  if (scripts.includes("'unsafe-eval'")) return v("csp-implemented-with-unsafe-eval", raw.slice(0, 300));
  const passive = [...(sourcesFor(p, "img-src") ?? []), ...(sourcesFor(p, "media-src") ?? [])];
  if (passive.some((s) => s === "http:" || s.startsWith("http://")))
    return v("csp-implemented-with-insecure-scheme-in-passive-content-only", raw.slice(0, 300));
  if (styles.includes("'unsafe-inline'"))
    return v("csp-implemented-with-unsafe-inline-in-style-src-only", raw.slice(0, 300));
  if ((p.get("default-src") ?? []).includes("'none'"))
    return v("csp-implemented-with-no-unsafe-default-src-none", raw.slice(0, 300));
  return v("csp-implemented-with-no-unsafe", raw.slice(0, 300));
}

export type Hsts = { maxAge: number; includeSubDomains: boolean; preload: boolean };

export function parseHsts(raw: string): Hsts | null {
  const first = raw.split(",")[0]!;
  const m = /(?:^|;)\s*max-age\s*=\s*"?(\d+)"?\s*(?:;|$)/i.exec(first);
  if (!m) return null;
  return {
    maxAge: Number(m[1]),
    includeSubDomains: /(?:^|;)\s*includesubdomains\s*(?:;|$)/i.test(first),
    preload: /(?:^|;)\s*preload\s*(?:;|$)/i.test(first),
  };
}

const SIX_MONTHS = 15_552_000;
const ONE_YEAR = 31_536_000;

export function testHsts(h: Record<string, string>, https: { reachable: boolean; certValid: boolean }): Verdict {
  if (!https.reachable) return v("hsts-not-implemented-no-https");
  const raw = h["strict-transport-security"];
  if (!raw) return v("hsts-not-implemented");
  const hsts = parseHsts(raw);
  if (!hsts) return v("hsts-header-invalid", raw.slice(0, 200));
  if (!https.certValid) return v("hsts-invalid-cert", raw.slice(0, 200));
  if (hsts.maxAge < SIX_MONTHS) return v("hsts-implemented-max-age-less-than-six-months", raw.slice(0, 200));
  if (hsts.maxAge >= ONE_YEAR && hsts.includeSubDomains && hsts.preload) return v("hsts-preloaded", raw.slice(0, 200));
  return v("hsts-implemented-max-age-at-least-six-months", raw.slice(0, 200));
}

export function testFraming(h: Record<string, string>): Verdict {
  const csp = h["content-security-policy"] ? parseCsp(h["content-security-policy"]) : null;
  if (csp?.has("frame-ancestors") && !(csp.get("frame-ancestors") ?? []).includes("*"))
    return v("x-frame-options-implemented-via-csp", `frame-ancestors ${csp.get("frame-ancestors")!.join(" ")}`);
  const raw = h["x-frame-options"];
  if (!raw) return v("x-frame-options-not-implemented");
  const value = raw.trim().toLowerCase();
  return value === "deny" || value === "sameorigin"
    ? v("x-frame-options-sameorigin-or-deny", raw)
    : v("x-frame-options-header-invalid", raw.slice(0, 200));
}

export function testNosniff(h: Record<string, string>): Verdict {
  const raw = h["x-content-type-options"];
  if (!raw) return v("x-content-type-options-not-implemented");
  return raw.trim().toLowerCase() === "nosniff"
    ? v("x-content-type-options-nosniff", raw)
    : v("x-content-type-options-header-invalid", raw.slice(0, 200));
}

const PRIVATE_REFERRER = new Set(["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"]);
const KNOWN_REFERRER = new Set([
  ...PRIVATE_REFERRER,
  "origin",
  "origin-when-cross-origin",
  "no-referrer-when-downgrade",
  "unsafe-url",
]);

export function testReferrer(h: Record<string, string>): Verdict {
  const raw = h["referrer-policy"];
  if (!raw) return v("referrer-policy-not-implemented");
  // Browsers use the last value they understand.
  const known = raw
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => KNOWN_REFERRER.has(s));
  const effective = known.at(-1);
  if (!effective) return v("referrer-policy-header-invalid", raw.slice(0, 200));
  if (PRIVATE_REFERRER.has(effective)) return v("referrer-policy-private", raw);
  if (effective === "no-referrer-when-downgrade") return v("referrer-policy-no-referrer-when-downgrade", raw);
  return v("referrer-policy-unsafe", raw);
}

export function testCors(h: Record<string, string>): Verdict {
  const origin = h["access-control-allow-origin"];
  if (!origin) return v("cross-origin-resource-sharing-not-implemented");
  const credentials = (h["access-control-allow-credentials"] ?? "").trim().toLowerCase() === "true";
  // The scan sends an unrelated Origin: reflecting it with credentials is as open as "*" with credentials.
  const reflected = origin.trim() === SCAN_ORIGIN;
  if (credentials && (origin.trim() === "*" || reflected))
    return v("cross-origin-resource-sharing-implemented-with-universal-access", `${origin}; credentials`);
  return v("cross-origin-resource-sharing-implemented-with-public-access", origin);
}

/** The Origin the scan sends, to find servers that reflect any origin. */
export const SCAN_ORIGIN = "https://scan-origin.invalid";

export function testCoop(h: Record<string, string>): Verdict {
  const raw = h["cross-origin-opener-policy"];
  if (!raw) return v("coop-not-implemented");
  const value = raw.split(";")[0]!.trim().toLowerCase();
  if (value === "same-origin") return v("coop-same-origin", raw);
  if (value === "same-origin-allow-popups" || value === "noopener-allow-popups")
    return v("coop-same-origin-allow-popups", raw);
  if (value === "unsafe-none") return v("coop-not-implemented", raw);
  return v("coop-header-invalid", raw.slice(0, 200));
}

export function testCorp(h: Record<string, string>): Verdict {
  const raw = h["cross-origin-resource-policy"];
  if (!raw) return v("corp-not-implemented");
  const value = raw.trim().toLowerCase();
  if (value === "same-origin" || value === "same-site") return v("corp-implemented-with-same-site", raw);
  if (value === "cross-origin") return v("corp-implemented-with-cross-origin", raw);
  return v("corp-header-invalid", raw.slice(0, 200));
}

export function testCoep(h: Record<string, string>): Verdict {
  const raw = h["cross-origin-embedder-policy"];
  if (!raw) return v("coep-not-implemented");
  const value = raw.split(";")[0]!.trim().toLowerCase();
  if (value === "require-corp" || value === "credentialless") return v("coep-implemented", raw);
  if (value === "unsafe-none") return v("coep-not-implemented", raw);
  return v("coep-header-invalid", raw.slice(0, 200));
}

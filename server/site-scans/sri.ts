// Subresource Integrity on the first HTML page: every <script src> that loads from another origin should carry an
// integrity hash and load over HTTPS. Scripts of the page's own origin need no hash.
import type { Verdict } from "./header-tests";

const SCRIPT_TAG = /<script\b([^>]*)>/gi;
const attr = (attrs: string, name: string) =>
  new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(attrs);

export type ExternalScript = { src: string; integrity: boolean; secure: boolean };

export function externalScripts(html: string, pageUrl: string): ExternalScript[] {
  const page = new URL(pageUrl);
  const out: ExternalScript[] = [];
  for (const m of html.matchAll(SCRIPT_TAG)) {
    const src = attr(m[1]!, "src");
    if (!src) continue;
    const value = (src[1] ?? src[2] ?? src[3] ?? "").trim();
    let url: URL;
    try {
      url = new URL(value, page);
    } catch {
      continue;
    }
    if (url.origin === page.origin) continue;
    out.push({ src: url.href.slice(0, 300), integrity: !!attr(m[1]!, "integrity"), secure: url.protocol === "https:" });
  }
  return out;
}

export function testSri(
  contentType: string | undefined,
  html: string,
  pageUrl: string,
): { verdict: Verdict; scripts: ExternalScript[] } {
  if (!contentType || !/html/i.test(contentType))
    return { verdict: { result: "sri-not-implemented-response-not-html", detail: contentType ?? null }, scripts: [] };
  const scripts = externalScripts(html, pageUrl);
  const detail = scripts.length
    ? scripts
        .map((s) => s.src)
        .join(" ")
        .slice(0, 500)
    : null;
  const pick = (result: string) => ({ verdict: { result, detail }, scripts });
  if (scripts.length === 0) return pick("sri-not-implemented-but-no-scripts-loaded");
  const allHashed = scripts.every((s) => s.integrity);
  const allSecure = scripts.every((s) => s.secure);
  if (allHashed)
    return pick(
      allSecure
        ? "sri-implemented-and-external-scripts-loaded-securely"
        : "sri-implemented-but-external-scripts-not-loaded-securely",
    );
  return pick(
    allSecure
      ? "sri-not-implemented-but-external-scripts-loaded-securely"
      : "sri-not-implemented-and-external-scripts-not-loaded-securely",
  );
}

// Composer (Packagist) orders versions by first normalising them the way composer/semver's VersionParser does
// ("v1.2" -> "1.2.0.0", "1.0.0RC1" -> "1.0.0.0-RC1", "2.0-p1" -> "2.0.0.0-patch1") and then comparing the
// normalised strings with PHP's version_compare(), whose special forms order
// dev < alpha = a < beta = b < RC = rc < (release) < pl = p = patch.
import { UnparseableVersionError } from "./ecosystems";

const MODIFIER = "[._-]?(?:(stable|beta|b|RC|alpha|a|patch|pl|p)((?:[.-]?\\d+)*)?)?([.-]?dev)?";
const CLASSICAL = new RegExp(`^v?(\\d{1,5})(\\.\\d+)?(\\.\\d+)?(\\.\\d+)?${MODIFIER}$`, "i");
const DATE_BASED = new RegExp(`^v?(\\d{4}(?:[.:-]?\\d{2}){1,6}(?:[.:-]?\\d{1,3}){0,2})${MODIFIER}$`, "i");

function expandStability(s: string): string {
  const lower = s.toLowerCase();
  return ({ a: "alpha", b: "beta", p: "patch", pl: "patch", rc: "RC" } as Record<string, string>)[lower] ?? lower;
}

/** Composer's VersionParser::normalize for release versions; branch names ("dev-main") are not orderable. */
export function normalizeComposerVersion(version: string): string {
  let v = version.trim();
  v = v.replace(/@(?:stable|RC|beta|alpha|dev)$/i, "");
  const build = /^([^,\s+]+)\+\S+$/.exec(v);
  if (build) v = build[1];
  let base: string;
  let rest: string[];
  const classical = CLASSICAL.exec(v);
  const date = classical ? null : DATE_BASED.exec(v);
  if (classical) {
    base = classical[1] + (classical[2] || ".0") + (classical[3] || ".0") + (classical[4] || ".0");
    rest = classical.slice(5);
  } else if (date) {
    base = date[1].replace(/\D/g, ".");
    rest = date.slice(2);
  } else {
    throw new UnparseableVersionError("composer", version);
  }
  const [stability, number, dev] = rest;
  if (stability) {
    if (stability.toLowerCase() === "stable") return base;
    base += `-${expandStability(stability)}${number ? number.replace(/^[.-]+/, "") : ""}`;
  }
  if (dev) base += "-dev";
  return base;
}

const SPECIAL_FORMS: Array<[string, number]> = [
  ["dev", 0],
  ["alpha", 1],
  ["a", 1],
  ["beta", 2],
  ["b", 2],
  ["RC", 3],
  ["rc", 3],
  ["#", 4],
  ["pl", 5],
  ["p", 5],
];

function specialForm(part: string): number {
  for (const [name, order] of SPECIAL_FORMS) if (part.startsWith(name)) return order;
  return -6;
}

function canonicalParts(v: string): string[] {
  const out: string[] = [];
  let cur = "";
  let prevKind: "digit" | "alpha" | null = null;
  for (const c of v) {
    // PHP turns "-", "_", "+" and any other character that is not a letter or digit into a separator.
    if (!/[0-9A-Za-z#]/.test(c)) {
      if (cur) out.push(cur);
      cur = "";
      prevKind = null;
      continue;
    }
    const kind = c >= "0" && c <= "9" ? "digit" : "alpha";
    if (prevKind && kind !== prevKind && cur) {
      out.push(cur);
      cur = "";
    }
    cur += c;
    prevKind = kind;
  }
  if (cur) out.push(cur);
  return out;
}

const isDigits = (s: string) => /^\d/.test(s);

/** PHP's version_compare() on two strings. */
export function phpVersionCompare(a: string, b: string): number {
  const pa = canonicalParts(a);
  const pb = canonicalParts(b);
  const n = Math.min(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const x = pa[i];
    const y = pb[i];
    let c: number;
    if (isDigits(x) && isDigits(y)) c = Math.sign(parseInt(x, 10) - parseInt(y, 10));
    else if (!isDigits(x) && !isDigits(y)) c = Math.sign(specialForm(x) - specialForm(y));
    else c = isDigits(x) ? Math.sign(specialForm("#") - specialForm(y)) : Math.sign(specialForm(x) - specialForm("#"));
    if (c !== 0) return c;
  }
  if (pa.length > n) return isDigits(pa[n]) ? 1 : phpVersionCompare(pa.slice(n).join("."), "#");
  if (pb.length > n) return isDigits(pb[n]) ? -1 : phpVersionCompare("#", pb.slice(n).join("."));
  return 0;
}

export function compareComposer(a: string, b: string): number {
  return phpVersionCompare(normalizeComposerVersion(a), normalizeComposerVersion(b));
}

export function isValidComposer(version: string): boolean {
  try {
    normalizeComposerVersion(version);
    return true;
  } catch {
    return false;
  }
}

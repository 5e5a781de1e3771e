// The cookies test: every Set-Cookie of the scanned responses, judged as the Observatory does: each cookie's faults
// are collected and the worst result (fewest points in the scoring table) wins. A cookie counts as a session cookie
// when its name looks like one (session, sid, auth, token, ...) or it is a __Host-/__Secure- one. A cookie that
// breaks its prefix's rules (RFC 6265bis 4.1.3) is refused by browsers: it gets its own result, whatever HSTS says.
import type { Verdict } from "./header-tests";
import { outcomeOf } from "./scoring-table";

export type ScannedCookie = {
  name: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: string | null;
  session: boolean;
  /** __Host- cookies must be Secure, Path=/ and have no Domain; __Secure- ones must be Secure. */
  prefixValid: boolean | null;
  /** What breaks the prefix's rules, in words ("Domain=example.com is set"); null when valid or unprefixed. */
  prefixProblem: string | null;
};

const SESSION_NAME = /(sess|sid|auth|token|login|jwt|remember|user)/i;

/** Node joins repeated Set-Cookie headers with ", "; split only where a new name=value starts. */
export function splitSetCookie(joined: string): string[] {
  return joined
    .split(/,\s*(?=[^;,=\s]+=)/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function prefixProblemOf(name: string, secure: boolean, a: Map<string, string>): string | null {
  const problems: string[] = [];
  if (name.startsWith("__Host-")) {
    if (!secure) problems.push("no Secure");
    if (a.has("domain")) problems.push(`Domain=${a.get("domain")} is set`);
    if (a.get("path") !== "/") problems.push(a.has("path") ? `Path=${a.get("path")} instead of /` : "no Path=/");
  } else if (name.startsWith("__Secure-") && !secure) problems.push("no Secure");
  return problems.length ? problems.join(", ") : null;
}

export function parseCookie(line: string): ScannedCookie | null {
  const [pair, ...attrs] = line.split(";");
  const eq = pair!.indexOf("=");
  if (eq <= 0) return null;
  const name = pair!.slice(0, eq).trim();
  const a = new Map<string, string>();
  for (const attr of attrs) {
    const i = attr.indexOf("=");
    const k = (i < 0 ? attr : attr.slice(0, i)).trim().toLowerCase();
    if (k) a.set(k, i < 0 ? "" : attr.slice(i + 1).trim());
  }
  const secure = a.has("secure");
  const prefixed = name.startsWith("__Host-") || name.startsWith("__Secure-");
  const prefixProblem = prefixed ? prefixProblemOf(name, secure, a) : null;
  return {
    name,
    secure,
    httpOnly: a.has("httponly"),
    sameSite: a.has("samesite") ? a.get("samesite")!.toLowerCase() : null,
    session: SESSION_NAME.test(name) || prefixed,
    prefixValid: prefixed ? prefixProblem === null : null,
    prefixProblem,
  };
}

export function testCookies(
  setCookie: string[],
  hstsProtected: boolean,
): { verdict: Verdict; cookies: ScannedCookie[] } {
  const cookies = setCookie
    .flatMap((h) => splitSetCookie(h))
    .map(parseCookie)
    .filter((c): c is ScannedCookie => c !== null);
  const names = (list: ScannedCookie[]) => list.map((c) => c.name).join(", ");
  const pick = (result: string, detail: string | null = null) => ({ verdict: { result, detail }, cookies });
  if (cookies.length === 0) return pick("cookies-not-found");
  const badSameSite = cookies.filter(
    (c) =>
      (c.sameSite !== null && !["strict", "lax", "none"].includes(c.sameSite)) || (c.sameSite === "none" && !c.secure),
  );
  const sessionNoSecure = cookies.filter((c) => c.session && !c.secure);
  const sessionNoHttpOnly = cookies.filter((c) => c.session && !c.httpOnly);
  const badPrefix = cookies.filter((c) => c.prefixValid === false);
  const noSecure = cookies.filter((c) => !c.secure);
  // Every fault found, in the table's order; the one costing the most points is the result (the first on a tie).
  const faults: [string, string][] = [];
  if (sessionNoSecure.length)
    faults.push([
      hstsProtected
        ? "cookies-session-without-secure-flag-but-protected-by-hsts"
        : "cookies-session-without-secure-flag",
      names(sessionNoSecure),
    ]);
  if (sessionNoHttpOnly.length) faults.push(["cookies-session-without-httponly-flag", names(sessionNoHttpOnly)]);
  if (badPrefix.length)
    faults.push(["cookies-invalid-prefix", badPrefix.map((c) => `${c.name} (${c.prefixProblem})`).join(", ")]);
  if (badSameSite.length) faults.push(["cookies-samesite-flag-invalid", names(badSameSite)]);
  if (noSecure.length)
    faults.push([
      hstsProtected ? "cookies-without-secure-flag-but-protected-by-hsts" : "cookies-without-secure-flag",
      names(noSecure),
    ]);
  if (faults.length) {
    const points = (r: string) => outcomeOf("cookies", r).points;
    const [result, detail] = faults.reduce((worst, f) => (points(f[0]) < points(worst[0]) ? f : worst));
    return pick(result, detail);
  }
  if (cookies.every((c) => c.sameSite !== null)) return pick("cookies-secure-with-httponly-sessions-and-samesite");
  return pick("cookies-secure-with-httponly-sessions");
}

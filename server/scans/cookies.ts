// The cookies test: every Set-Cookie of the scanned responses, judged as the Observatory does. A cookie counts as
// a session cookie when its name looks like one (session, sid, auth, token, ...) or it is a __Host-/__Secure- one.
import type { Verdict } from "./header-tests";

export type ScannedCookie = {
  name: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: string | null;
  session: boolean;
  /** __Host- cookies must be Secure, Path=/ and have no Domain; __Secure- ones must be Secure. */
  prefixValid: boolean | null;
};

const SESSION_NAME = /(sess|sid|auth|token|login|jwt|remember|user)/i;

/** Node joins repeated Set-Cookie headers with ", "; split only where a new name=value starts. */
export function splitSetCookie(joined: string): string[] {
  return joined.split(/,\s*(?=[^;,=\s]+=)/).map((s) => s.trim()).filter(Boolean);
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
  let prefixValid: boolean | null = null;
  if (name.startsWith("__Host-")) prefixValid = secure && !a.has("domain") && a.get("path") === "/";
  else if (name.startsWith("__Secure-")) prefixValid = secure;
  return {
    name,
    secure,
    httpOnly: a.has("httponly"),
    sameSite: a.has("samesite") ? a.get("samesite")!.toLowerCase() : null,
    session: SESSION_NAME.test(name) || prefixValid !== null,
    prefixValid,
  };
}

export function testCookies(setCookie: string[], hstsProtected: boolean): { verdict: Verdict; cookies: ScannedCookie[] } {
  const cookies = setCookie.flatMap((h) => splitSetCookie(h)).map(parseCookie).filter((c): c is ScannedCookie => c !== null);
  const names = (list: ScannedCookie[]) => list.map((c) => c.name).join(", ");
  const pick = (result: string, list: ScannedCookie[] = []) => ({ verdict: { result, detail: list.length ? names(list) : null }, cookies });
  if (cookies.length === 0) return pick("cookies-not-found");
  const badSameSite = cookies.filter((c) => (c.sameSite !== null && !["strict", "lax", "none"].includes(c.sameSite)) || (c.sameSite === "none" && !c.secure));
  const sessionNoSecure = cookies.filter((c) => c.session && !c.secure);
  const sessionNoHttpOnly = cookies.filter((c) => c.session && !c.httpOnly);
  const noSecure = cookies.filter((c) => !c.secure || c.prefixValid === false);
  if (sessionNoSecure.length) return pick(hstsProtected ? "cookies-session-without-secure-flag-but-protected-by-hsts" : "cookies-session-without-secure-flag", sessionNoSecure);
  if (sessionNoHttpOnly.length) return pick("cookies-session-without-httponly-flag", sessionNoHttpOnly);
  if (badSameSite.length) return pick("cookies-samesite-flag-invalid", badSameSite);
  if (noSecure.length) return pick(hstsProtected ? "cookies-without-secure-flag-but-protected-by-hsts" : "cookies-without-secure-flag", noSecure);
  if (cookies.every((c) => c.sameSite !== null)) return pick("cookies-secure-with-httponly-sessions-and-samesite");
  return pick("cookies-secure-with-httponly-sessions");
}

// A link destination: what we store, what we redirect to, and the normalized form that decides reuse.
// Normalization is the WHATWG URL serialization (scheme and host lowercased, IDN host in punycode, default port
// dropped, an empty path becomes "/", dot segments resolved) plus: no fragment, no trailing dot on the host.
// Path and query are kept exactly as serialized, so "/A?b=1&a=2" and "/a?a=2&b=1" are different destinations.
import { normalizeHostName, parseHostAddressLoose } from "../net";

export const MAX_URL_LENGTH = 2048;

export interface Destination {
  /** The URL as given, serialized (fragment kept): where the link redirects. */
  url: string;
  /** The reuse key: `url` without fragment and with the host's trailing dot removed. */
  normalized: string;
  /** Lowercase ASCII host name, or the canonical address of an IP literal (no brackets). */
  host: string;
  ipLiteral: boolean;
  /** The port a browser would connect to (the scheme's default when none is written). */
  port: number;
}

export function parseDestination(input: string): Destination | { error: string } {
  const raw = input.trim();
  if (raw.length === 0) return { error: "url: is required." };
  if (raw.length > MAX_URL_LENGTH) return { error: `url: must be at most ${MAX_URL_LENGTH} characters.` };
  if (!/^https?:\/\//i.test(raw)) return { error: "url: must be an absolute http:// or https:// URL." };
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { error: "url: is not a valid URL." };
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    return { error: "url: must be an absolute http:// or https:// URL." };
  // Credentials in a link leak to everyone who sees it, and "https://bank.example@evil.example/" is a phishing classic.
  if (u.username || u.password) return { error: "url: must not contain a user name or password." };
  const hostPart = u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname;
  const address = parseHostAddressLoose(hostPart);
  const host = address ?? normalizeHostName(hostPart);
  if (!host) return { error: "url: the host is not a valid host name." };
  const n = new URL(u.href);
  n.hash = "";
  if (!address && n.hostname !== host) n.hostname = host;
  if (u.href.length > MAX_URL_LENGTH)
    return { error: `url: must be at most ${MAX_URL_LENGTH} characters once encoded.` };
  const port = u.port ? Number(u.port) : u.protocol === "https:" ? 443 : 80;
  return { url: u.href, normalized: n.href, host, ipLiteral: address !== null, port };
}

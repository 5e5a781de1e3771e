// The one rule for where a request came from: the origin it was addressed to and the caller's address. The
// X-Forwarded-* headers are believed only when SERVICE_TRUST_PROXY says how many proxies set them; otherwise the
// Host header and the request URL give the origin, and the caller's address is the connection's own (passed in
// where a caller has a socket; Next's route handlers never see one, so there it is unknown and null).
import { isIP } from "node:net";
import { trustedProxyCount } from "./config";

const HOST = /^[a-z0-9.:[\]-]+$/i;

/**
 * The value a header carries as the outermost trusted proxy saw it. Each proxy appends to the comma-separated
 * list, so with `proxies` proxies in front the entry that many places from the right was written by the first
 * of them; anything left of it came from the caller and may be forged. A shorter list gives its first entry.
 */
function forwarded(headers: Pick<Headers, "get">, name: string, proxies: number): string | null {
  const list = (headers.get(name) ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  if (list.length === 0) return null;
  return list[Math.max(0, list.length - proxies)]!;
}

function parseUrl(url: string | null | undefined): URL | null {
  if (!url) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * The origin (`scheme://host[:port]`, host lower-cased) the request was addressed to, or null when nothing says.
 * Trusted proxies: X-Forwarded-Host and -Proto. Otherwise the Host header (a browser always sends the real one)
 * and the request URL's scheme.
 */
export function requestOrigin(req: { url?: string | null; headers: Headers }): string | null {
  const proxies = trustedProxyCount();
  const url = parseUrl(req.url);
  const host =
    (proxies > 0 ? forwarded(req.headers, "x-forwarded-host", proxies) : null) ??
    req.headers.get("host") ??
    url?.host ??
    null;
  if (!host || !HOST.test(host)) return null;
  const claimed = proxies > 0 ? forwarded(req.headers, "x-forwarded-proto", proxies)?.toLowerCase() : null;
  const proto = claimed === "https" || claimed === "http" ? claimed : url?.protocol === "https:" ? "https" : "http";
  // A Host that is no authority (a port past 65535, "[::1" without its bracket, "a:b:c") names no origin: an address
  // built on it (a short link's short_url) would not be one. The URL's own origin also drops a default port, as the
  // Origin header a browser sends does.
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return null;
  }
}

/**
 * The connection's own address, as the production server's node:http front (scripts/http-front.mjs) writes it on
 * every request, replacing any value a client sent. Route handlers see no socket; this is how they learn it. It is
 * believed only in a process that serves through the front (the front sets PEER_ADDRESS_FLAG on globalThis): under
 * `next start` or `next dev` a client could send it, so there the address is unknown.
 */
export const PEER_ADDRESS_HEADER = "x-service-peer-address";
export const PEER_ADDRESS_FLAG = "__servicePeerAddressFromFront";

function peerFromFront(headers: Pick<Headers, "get">): string | null {
  if (!(globalThis as Record<string, unknown>)[PEER_ADDRESS_FLAG]) return null;
  return headers.get(PEER_ADDRESS_HEADER) || null;
}

/**
 * The caller's IP address, or null when unknown. Trusted proxies: the X-Forwarded-For entry the outermost of them
 * wrote. Otherwise `peer`, the connection's address, when the caller of this function has one, else the address
 * the front recorded for the connection.
 */
export function clientAddress(headers: Pick<Headers, "get">, peer: string | null = null): string | null {
  const proxies = trustedProxyCount();
  const claimed = proxies > 0 ? forwarded(headers, "x-forwarded-for", proxies) : null;
  const address = claimed ?? peer ?? peerFromFront(headers);
  if (!address) return null;
  // [v6]:port and v4:port lose the port; an IPv4 address a dual-stack socket reports as ::ffff:a.b.c.d is IPv4.
  const bare = address
    .replace(/^\[(.*)\](?::\d+)?$/, "$1")
    .replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, "$1")
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");
  return isIP(bare) ? bare : null;
}

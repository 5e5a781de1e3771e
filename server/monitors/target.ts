// A monitor's target as each check needs it: the user gives a host, a domain, an IP address (any of them with
// :port) or an http(s) URL; a check takes the host with its port (tls), the name (dns, email security, ct), the
// name or address (blocklists) or a URL (scan, reachability). Parsing only: vetting is the lookups' own SSRF guard.
// A monitor whose checks look at nothing of the target (packages only) may name its project instead: a label that
// nothing connects to. Hosts are judged as written (../net/target.ts parseWrittenHostAndPort): "134744072" or "1.1" is
// no host, and a packages monitor's label "12345" stays "12345", never the address a URL parser reads in it.
import {
  isWrittenAsUrl,
  parseHostAndPort,
  parseTargetUrl,
  parseWrittenHostAndPort,
  parseWrittenTargetUrl,
} from "../net";

export interface MonitorTarget {
  /** The target as stored: the URL as given, else host[:port] normalised. */
  value: string;
  host: string;
  /** Set for an IP literal. */
  address: string | null;
  port: number | null;
  /** The URL for scan and reachability: the one given, else https://host[:port]/. */
  url: string;
  /** A project's label, not a place on the network (a monitor of target-free checks only). */
  label?: true;
}

/** What a label may hold: `shop-frontend`, `github.com/acme/shop`, `@acme/shop`. */
export const TARGET_LABEL = /^[A-Za-z0-9._@/:+#~-]{1,200}$/;

const bracketed = (h: string) => (h.includes(":") ? `[${h}]` : h);

/**
 * A monitor's target: a host or URL, else, when `labelAllowed` (its checks are all target-free: `targetFree` in
 * checks/index.ts), a project's label.
 */
export function parseMonitorTarget(
  input: string,
  labelAllowed = false,
  opts: { stored?: boolean } = {},
): MonitorTarget | null {
  const place = parsePlace(input, true);
  if (place) return place;
  const s = input.trim();
  if (labelAllowed && TARGET_LABEL.test(s))
    return { value: s, host: s, address: null, port: null, url: "", label: true };
  // A stored target was judged when it was written, by the rule of its day: one the stricter rule of today refuses (a
  // name with no letter, "1.2-3") is read as it was then, so that its monitor keeps running and can be renamed.
  return opts.stored ? parsePlace(input, false) : null;
}

function parsePlace(input: string, asWritten: boolean): MonitorTarget | null {
  const s = input.trim();
  if (isWrittenAsUrl(s)) {
    const u = asWritten ? parseWrittenTargetUrl(s) : parseTargetUrl(s);
    if (!u) return null;
    return { value: u.url.toString(), host: u.host, address: u.address, port: u.port, url: u.url.toString() };
  }
  const h = asWritten ? parseWrittenHostAndPort(s) : parseHostAndPort(s);
  if (!h) return null;
  const hostPort = h.port !== null ? `${bracketed(h.host)}:${h.port}` : h.host;
  return { value: hostPort, host: h.host, address: h.address, port: h.port, url: `https://${hostPort}/` };
}

/** host[:port] for a TLS connection (the URL's port when the target is an https URL with one). */
export function tlsHostOf(t: MonitorTarget): string {
  return t.port !== null ? `${bracketed(t.host)}:${t.port}` : t.host;
}

// Parsing of user-supplied targets ("example.com", "example.com:8443", "[2001:db8::1]:443", URLs) into a host and
// port, before any vetting. Host names are turned into their ASCII (punycode) form so that the name we vet is the
// name we resolve.
import { domainToASCII } from "node:url";
import { isPubliclyRoutable } from "./ip";
import { parseHostAddressLoose, parseIpStrict } from "./ip-parse";

export type TargetHost = {
  /** Lowercase ASCII host name without a trailing dot, or the canonical IP address (no brackets). */
  host: string;
  /** Set when the host is an IP literal in any spelling. */
  address: string | null;
  port: number | null;
};

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/** A syntactically valid DNS host name (LDH labels, underscores tolerated as in real-world names), or null. */
export function normalizeHostName(input: string): string | null {
  let h = input.trim().toLowerCase();
  if (h.endsWith(".")) h = h.slice(0, -1);
  if (h === "" || h.length > 253) return null;
  // domainToASCII also refuses what a URL parser would: a bad punycode label (xn--zz) and a name ending in a
  // number, which URL parsers read as an IPv4 address (999.999.999.999 is no host at all). Vetting such a name
  // used to happen after the unit was reserved.
  const converted = domainToASCII(h);
  const ascii = /^[\x21-\x7e]+$/.test(h) && converted ? h : converted;
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split(".");
  if (/^(\d+|0x[0-9a-f]*)$/.test(labels[labels.length - 1]!)) return null;
  return labels.every((l) => LABEL.test(l)) ? ascii : null;
}

/** The host part of "host", "host:port", "[v6]", "[v6]:port" or a bare IPv6 address as written, and its port. */
function splitHostAndPort(input: string): { hostPart: string; port: number | null } | null {
  const s = input.trim();
  if (s === "" || s.length > 300 || /[\s/?#@\\]/.test(s)) return null;
  let hostPart = s;
  let port: number | null = null;
  const bracket = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s);
  if (bracket) {
    hostPart = bracket[1]!;
    if (bracket[2] !== undefined) port = Number(bracket[2]);
  } else if ((s.match(/:/g) ?? []).length === 1) {
    const i = s.indexOf(":");
    if (!/^\d{1,5}$/.test(s.slice(i + 1))) return null;
    hostPart = s.slice(0, i);
    port = Number(s.slice(i + 1));
  }
  if (port !== null && (port < 1 || port > 65535)) return null;
  return { hostPart, port };
}

/** "host", "host:port", "[v6]", "[v6]:port" or a bare IPv6 address; null when it is none of these. */
export function parseHostAndPort(input: string): TargetHost | null {
  const split = splitHostAndPort(input);
  if (!split) return null;
  const { hostPart, port } = split;
  const address = parseHostAddressLoose(hostPart);
  if (address) return { host: address, address, port };
  if (hostPart.includes(":")) return null;
  const host = normalizeHostName(hostPart);
  return host ? { host, address: null, port } : null;
}

/**
 * parseHostAndPort for a target that is stored and shown back: the host judged as written. An address only as a dotted
 * quad or IPv6 text, a name only with a label that has a letter. "134744072", "0x08080808", "1.1" and "010.8.8.8" are
 * addresses to a URL parser or inet_aton (8.8.8.8, 1.0.0.1) but none as written, so they are refused (null) rather
 * than kept as the address they spell, as the /domain routes and /blocklists/check refuse them.
 */
export function parseWrittenHostAndPort(input: string): TargetHost | null {
  const split = splitHostAndPort(input);
  if (!split) return null;
  const parsed = parseHostAndPort(input);
  if (!parsed) return null;
  if (parsed.address) return parseIpStrict(split.hostPart) ? parsed : null;
  return parsed.host.split(".").some((label) => /[a-z]/.test(label)) ? parsed : null;
}

/**
 * parseTargetUrl with its host judged as written (parseWrittenHostAndPort): `https://134744072/` is refused, where a
 * URL parser reads it as https://8.8.8.8/.
 */
export function parseWrittenTargetUrl(input: string): TargetUrl | null {
  const u = parseTargetUrl(input);
  if (!u) return null;
  const authority = authorityOf(input);
  // An empty port ("example.com:") is no port to a URL parser.
  return authority !== undefined && parseWrittenHostAndPort(authority.replace(/:$/, "")) ? u : null;
}

/** A scheme and `//` at the start (RFC 3986's scheme), and the authority written after them. */
const SCHEME_AND_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/([^/?#\\]*)/i;

/** Whether the input (trimmed) is written as a URL with a scheme (`https://…`), not as a host or host:port. */
export function isWrittenAsUrl(input: string): boolean {
  return SCHEME_AND_AUTHORITY.test(input.trim());
}

/** The authority of a URL as written (`user@host:port` between `scheme://` and the path), or undefined for no URL. */
function authorityOf(input: string): string | undefined {
  return SCHEME_AND_AUTHORITY.exec(input.trim())?.[1];
}

export type TargetUrl = TargetHost & { url: URL; scheme: "http" | "https"; effectivePort: number };

/** An absolute http(s) URL; the host vetted the same way as a bare host. Credentials in the URL are refused. */
export function parseTargetUrl(input: string): TargetUrl | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password) return null;
  const scheme = url.protocol === "https:" ? "https" : "http";
  const port = url.port ? Number(url.port) : null;
  const hostPart = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const address = parseHostAddressLoose(hostPart);
  const host = address ?? normalizeHostName(hostPart);
  if (!host) return null;
  return { url, scheme, host, address, port, effectivePort: port ?? (scheme === "https" ? 443 : 80) };
}

/**
 * Why the host of a host[:port] or URL input is refused when it spells an IPv4 address other than as a dotted quad
 * ("134744072 is no IP address as written: some programs read it as 8.8.8.8, ..."); null for any other input. One
 * sentence for every route that judges a host as written (monitors' targets, /host/{host}/...).
 */
export function looseIpv4Problem(input: string): string | null {
  const loose = looseIpv4Spelling(input);
  if (!loose) return null;
  const { written, spelled } = loose;
  return `${written.slice(0, 100)} is no IP address as written: some programs read it as ${spelled}, others not at all. Write an IPv4 address as a dotted quad (four decimal numbers 0 to 255, as in ${spelled}), or give a host name`;
}

/**
 * Whether the host of a host[:port] or URL input spells, other than as a dotted quad, an address no public server may
 * be asked to reach ("0x7f.1", "2130706433": 127.0.0.1). Such a target is the SSRF guard's to refuse, with 400
 * TARGET_FORBIDDEN as every spelling of a private target (issue 3: decimal, octal and hex spellings included), before
 * the "as written" refusal of looseIpv4Problem, which is for spellings of a public address.
 */
export function spellsNonPublicIpv4(input: string): boolean {
  const loose = looseIpv4Spelling(input);
  return loose !== null && !isPubliclyRoutable(loose.spelled);
}

function looseIpv4Spelling(input: string): { written: string; spelled: string } | null {
  const s = input.trim();
  const authority = authorityOf(s) ?? s;
  const split = splitHostAndPort(authority.replace(/:$/, ""));
  if (!split || split.hostPart.includes(":") || parseIpStrict(split.hostPart)) return null;
  const spelled = parseHostAddressLoose(split.hostPart);
  return spelled ? { written: split.hostPart, spelled } : null;
}

// Reverse-lookup names: the PTR name of an address (RFC 1035 in-addr.arpa, RFC 3596 ip6.arpa) and the DNSBL query
// prefix, which uses the same reversed order without the arpa suffix.
import { ipv6ToGroups, parseIpStrict } from "../net/ip";

/** "192.0.2.1" -> "1.2.0.192"; "2001:db8::1" -> the 32 reversed nibbles joined with dots. Null if not an IP. */
export function reversedLabels(ip: string): string | null {
  const parsed = parseIpStrict(ip);
  if (!parsed) return null;
  if (parsed.version === 4) return parsed.address.split(".").reverse().join(".");
  const groups = ipv6ToGroups(parsed.address);
  if (!groups) return null;
  const nibbles = groups.map((g) => g.toString(16).padStart(4, "0")).join("");
  return nibbles.split("").reverse().join(".");
}

export function ptrName(ip: string): string | null {
  const parsed = parseIpStrict(ip);
  const rev = reversedLabels(ip);
  if (!parsed || !rev) return null;
  return `${rev}.${parsed.version === 4 ? "in-addr.arpa" : "ip6.arpa"}`;
}

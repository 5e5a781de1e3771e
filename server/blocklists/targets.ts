// A blocklist target: an IPv4 or IPv6 address, or a domain name.
import { getDomain } from "tldts";
import { checkDomainName, isHostName } from "../dns/names";
import { reversedLabels } from "../dns/reverse";
import { parseIpStrict } from "../net/ip";
import { unmappedAddress } from "../net/ip-parse";

export type Target =
  | { kind: "ipv4" | "ipv6"; input: string; value: string; queryPrefixes: string[] }
  | { kind: "domain"; input: string; value: string; registrableDomain: string | null; queryPrefixes: string[] };

export function parseTarget(raw: string): Target | { error: string } {
  const input = raw.trim();
  const ip = parseIpStrict(input);
  if (ip) {
    // An IPv4-mapped address (::ffff:a.b.c.d, how a dual-stack socket reports an IPv4 client) is the IPv4 host: it
    // is looked up on the IPv4 lists, as /ip/{ip} and /assess read it, never as an IPv6 name no list holds.
    const address = ip.version === 6 ? unmappedAddress(ip.address) : ip.address;
    return {
      kind: ip.version === 4 || address !== ip.address ? "ipv4" : "ipv6",
      input,
      value: address,
      queryPrefixes: [reversedLabels(address)!],
    };
  }
  const d = checkDomainName(input);
  if (!d.ok) return { error: `"${input.slice(0, 100)}" is neither an IP address nor a domain name: ${d.reason}` };
  if (!isHostName(d.name))
    return { error: `"${input.slice(0, 100)}" is not a host name (it needs at least two labels and no underscores).` };
  const registrable = getDomain(d.name, { allowPrivateDomains: true });
  // Domain lists list registrable domains (and some hosts below them): ask for both when they differ.
  const prefixes = registrable && registrable !== d.name ? [d.name, registrable] : [d.name];
  return { kind: "domain", input, value: d.name, registrableDomain: registrable, queryPrefixes: prefixes };
}

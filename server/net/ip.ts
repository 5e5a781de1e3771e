// Classifies an IP address against the IANA special-purpose registries. The tables are compiled once at module load
// into integer masks, and each classification returns a shared frozen object, so a lookup allocates nothing for
// IPv4 and only the parsed groups for IPv6.
import { IPV4_SPECIAL, IPV6_GLOBAL_UNICAST, IPV6_SPECIAL, type IpScope, type RangeRow } from "./ip-ranges";
import {
  addressInRange,
  intToIpv4,
  ipv4ToInt,
  ipv6ToGroups,
  looseIpv4ToInt,
  parseCidr,
  parseIpStrict,
  unmappedAddress,
  unmappedRange,
} from "./ip-parse";

export {
  parseIpStrict,
  parseHostAddressLoose,
  ipv4ToInt,
  intToIpv4,
  ipv6ToGroups,
  formatIpv6,
  parseCidr,
  formatCidr,
} from "./ip-parse";
export type { ParsedIp, IpVersion } from "./ip-parse";
export type { IpScope } from "./ip-ranges";

export type IpClassification = { scope: IpScope; range: string | null; reason: string | null };

type Compiled = { result: IpClassification; routable: boolean };
type V4Row = Compiled & { base: number; mask: number };
type V6Row = Compiled & { words: number[]; masks: number[] };

const freeze = (row: RangeRow): IpClassification =>
  Object.freeze({ scope: row.scope, range: row.cidr, reason: row.reason });
const byPrefixDesc = (a: RangeRow, b: RangeRow) => Number(b.cidr.split("/")[1]) - Number(a.cidr.split("/")[1]);

function maskOf(bits: number): number {
  return bits <= 0 ? 0 : bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
}

function groupsToWords(g: readonly number[]): number[] {
  return [
    ((g[0]! << 16) | g[1]!) >>> 0,
    ((g[2]! << 16) | g[3]!) >>> 0,
    ((g[4]! << 16) | g[5]!) >>> 0,
    ((g[6]! << 16) | g[7]!) >>> 0,
  ];
}

const V4_ROWS: V4Row[] = [...IPV4_SPECIAL].sort(byPrefixDesc).map((row) => {
  const [net, len] = row.cidr.split("/") as [string, string];
  const mask = maskOf(Number(len));
  return { base: (ipv4ToInt(net) & mask) >>> 0, mask, result: freeze(row), routable: row.routable };
});

function compileV6(row: RangeRow): V6Row {
  const [net, len] = row.cidr.split("/") as [string, string];
  const bits = Number(len);
  const masks = [0, 1, 2, 3].map((i) => maskOf(Math.min(32, Math.max(0, bits - 32 * i))));
  const words = groupsToWords(ipv6ToGroups(net)!).map((w, i) => (w & masks[i]!) >>> 0);
  return { words, masks, result: freeze(row), routable: row.routable };
}

const V6_ROWS: V6Row[] = [...IPV6_SPECIAL].sort(byPrefixDesc).map(compileV6);
const V6_GLOBAL = compileV6({ cidr: IPV6_GLOBAL_UNICAST, scope: "public", reason: "", routable: true });

const PUBLIC: Compiled = { result: Object.freeze({ scope: "public", range: null, reason: null }), routable: true };
const V6_UNALLOCATED: Compiled = {
  result: Object.freeze({ scope: "reserved", range: null, reason: "Outside the IANA global unicast space 2000::/3" }),
  routable: false,
};
const INVALID: Compiled = {
  result: Object.freeze({ scope: "reserved", range: null, reason: "Not a valid IP address" }),
  routable: false,
};

function classifyV4Int(n: number): Compiled {
  for (const row of V4_ROWS) if ((n & row.mask) >>> 0 === row.base) return row;
  return PUBLIC;
}

function matchesV6(w: readonly number[], row: V6Row): boolean {
  for (let i = 0; i < 4; i++) if ((w[i]! & row.masks[i]!) >>> 0 !== row.words[i]) return false;
  return true;
}

// Mapped, NAT64 and 6to4 addresses reach an IPv4 host: a private embedded address makes the whole address private.
function viaEmbedded(row: V6Row, v4: number): Compiled {
  const inner = classifyV4Int(v4);
  if (inner.routable) return row;
  const ip = intToIpv4(v4);
  return {
    result: {
      scope: inner.result.scope,
      range: inner.result.range,
      reason: `${row.result.reason} of ${ip}: ${inner.result.reason}`,
    },
    routable: false,
  };
}

function classifyV6Groups(g: readonly number[]): Compiled {
  const w = groupsToWords(g);
  for (const row of V6_ROWS) {
    if (!matchesV6(w, row)) continue;
    const scope = row.result.scope;
    if (scope === "ipv4_mapped" || (scope === "nat64" && row.result.range === "64:ff9b::/96"))
      return viaEmbedded(row, w[3]!);
    if (scope === "6to4") return viaEmbedded(row, (((w[0]! & 0xffff) << 16) | (w[1]! >>> 16)) >>> 0);
    return row;
  }
  return matchesV6(w, V6_GLOBAL) ? PUBLIC : V6_UNALLOCATED;
}

function classifyInternal(address: string): Compiled {
  if (address.indexOf(":") >= 0) {
    let t = address;
    if (t.startsWith("[") && t.endsWith("]")) t = t.slice(1, -1);
    const pct = t.indexOf("%");
    if (pct >= 0) t = t.slice(0, pct);
    const g = ipv6ToGroups(t);
    return g ? classifyV6Groups(g) : INVALID;
  }
  const n = ipv4ToInt(address);
  if (n >= 0) return classifyV4Int(n);
  const loose = looseIpv4ToInt(address);
  return loose >= 0 ? classifyV4Int(loose) : INVALID;
}

/**
 * Scope of an address per the IANA special-purpose registries. IPv4-mapped (and NAT64 well-known) IPv6 addresses
 * take the scope of their embedded IPv4 address when that one is not public. Anything unparsable is "reserved"
 * with the reason "Not a valid IP address", never "public".
 */
export function classifyIp(address: string): IpClassification {
  return classifyInternal(address).result;
}

/** True only for addresses a public server may be asked to connect to: the core check of the SSRF guard. */
export function isPubliclyRoutable(address: string): boolean {
  return classifyInternal(address).routable;
}

/**
 * Tests membership of a strict IPv4 or IPv6 address in a CIDR ("10.0.0.0/8", "2001:db8::/32"), read by the one
 * CIDR parser (ip-parse.ts), the same way a rule's range is read when it is saved.
 */
export function ipInCidr(address: string, cidr: string): boolean {
  if (!cidr.includes("/")) return false;
  const range = parseCidr(cidr);
  if (range === null) return false;
  // An IPv4-mapped address (a dual-stack socket's IPv4 client) is tested as the IPv4 address it names, and a range
  // written inside ::ffff:0:0/96 as the IPv4 range it names (issue 42, item 6).
  const ip = parseIpStrict(address.trim());
  return addressInRange(ip ? unmappedAddress(ip.address) : address, unmappedRange(range));
}

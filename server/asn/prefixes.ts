// Per-ASN totals over the shipped ASN tables: how many ranges, CIDR prefixes and addresses each AS originates.
// Built in one pass the first time an ASN is asked about, then kept until the tables change.
import { asnIpv4Feed, asnIpv6Feed } from "../feeds/definitions/asn";
import { derived, getFeedSync } from "../feeds/loader";

export interface AsnPrefixStats {
  organization: string | null;
  ipv4: { ranges: number; prefixes: number; addresses: number };
  ipv6: { ranges: number; prefixes: number; slash48s: number };
}

/** Number of CIDR blocks that exactly cover [start, end] (ranges in the tables are merged routes). */
function cidrCount4(start: number, end: number): number {
  let n = 0;
  for (let s = start; s <= end; n++) {
    let size = 1;
    while (size < 2 ** 32 && s % (size * 2) === 0 && s + size * 2 - 1 <= end) size *= 2;
    s += size;
  }
  return n;
}

function cidrCount6(start: bigint, end: bigint): number {
  let n = 0;
  let s = start;
  while (s <= end) {
    let size = s === 0n ? 1n << 128n : s & -s;
    while (s + size - 1n > end) size >>= 1n;
    s += size;
    n++;
  }
  return n;
}

type Index = Map<number, AsnPrefixStats>;

function entry(index: Index, asn: number, org: string | null): AsnPrefixStats {
  let e = index.get(asn);
  if (!e) {
    e = {
      organization: org,
      ipv4: { ranges: 0, prefixes: 0, addresses: 0 },
      ipv6: { ranges: 0, prefixes: 0, slash48s: 0 },
    };
    index.set(asn, e);
  }
  return e;
}

function buildIndex(): Index {
  const index: Index = new Map();
  const t4 = getFeedSync(asnIpv4Feed).data;
  const s4 = t4.starts as Uint32Array;
  const e4 = t4.ends as Uint32Array;
  for (let i = 0; i < s4.length; i++) {
    const e = entry(index, t4.asns[i]!, t4.orgs[t4.orgIds[i]!] || null);
    e.ipv4.ranges++;
    e.ipv4.prefixes += cidrCount4(s4[i]!, e4[i]!);
    e.ipv4.addresses += e4[i]! - s4[i]! + 1;
  }
  const t6 = getFeedSync(asnIpv6Feed).data;
  const s6 = t6.starts as bigint[];
  const e6 = t6.ends as bigint[];
  for (let i = 0; i < s6.length; i++) {
    const e = entry(index, t6.asns[i]!, t6.orgs[t6.orgIds[i]!] || null);
    e.ipv6.ranges++;
    e.ipv6.prefixes += cidrCount6(s6[i]!, e6[i]!);
    e.ipv6.slash48s += Number((e6[i]! >> 80n) - (s6[i]! >> 80n) + 1n);
  }
  return index;
}

/** Totals for one ASN, or null when the shipped tables never name it. */
export function asnPrefixStats(asn: number): AsnPrefixStats | null {
  const v4 = getFeedSync(asnIpv4Feed);
  const v6 = getFeedSync(asnIpv6Feed);
  // Keyed on both tables' data: a refresh of either rebuilds the index.
  const index = derived("asn-prefix-index", [v4.data, v6.data], buildIndex);
  return index.get(asn) ?? null;
}

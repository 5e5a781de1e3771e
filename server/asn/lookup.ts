// IP -> origin ASN and organisation from the shipped ASN tables (binary search over sorted, disjoint ranges).
import { asnIpv4Feed, asnIpv6Feed, type AsnTable } from "../feeds/definitions/asn";
import { ipv6ToBigInt } from "../feeds/ip-range-set";
import { getFeedSync } from "../feeds/loader";
import { feedSourceRef, type FeedSourceRef } from "../feeds/source";
import { formatIpv6, intToIpv4, ipv4ToInt } from "../net/ip";

export interface AsnMatch {
  asn: number;
  organization: string | null;
  /** The range of the table row that holds the address (a route, or an RIR delegation). */
  range: { start: string; end: string };
  source: FeedSourceRef;
}

function search<N extends number | bigint>(starts: ArrayLike<N>, x: N): number {
  let lo = 0;
  let hi = starts.length - 1;
  let idx = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= x) {
      idx = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return idx;
}

function bigToIpv6(n: bigint): string {
  const g: number[] = [];
  for (let i = 7; i >= 0; i--) g.push(Number((n >> BigInt(i * 16)) & 0xffffn));
  return formatIpv6(g);
}

/** The origin AS of a public address, or null when no table row holds it (unrouted, or not an address). */
export function lookupAsnForIp(address: string): AsnMatch | null {
  if (address.includes(":")) {
    const state = getFeedSync(asnIpv6Feed);
    const t: AsnTable<bigint> = state.data;
    const n = ipv6ToBigInt(address);
    if (n === null) return null;
    const i = search(t.starts as bigint[], n);
    if (i < 0 || (t.ends as bigint[])[i]! < n || t.asns[i] === 0) return null;
    return {
      asn: t.asns[i]!,
      organization: t.orgs[t.orgIds[i]!] || null,
      range: { start: bigToIpv6((t.starts as bigint[])[i]!), end: bigToIpv6((t.ends as bigint[])[i]!) },
      source: feedSourceRef(asnIpv6Feed, state),
    };
  }
  const state = getFeedSync(asnIpv4Feed);
  const t = state.data;
  const n = ipv4ToInt(address);
  if (n < 0) return null;
  const i = search(t.starts as Uint32Array, n);
  if (i < 0 || (t.ends as Uint32Array)[i]! < n || t.asns[i] === 0) return null;
  return {
    asn: t.asns[i]!,
    organization: t.orgs[t.orgIds[i]!] || null,
    range: { start: intToIpv4((t.starts as Uint32Array)[i]!), end: intToIpv4((t.ends as Uint32Array)[i]!) },
    source: feedSourceRef(asnIpv4Feed, state),
  };
}

// A set of labelled IP ranges (CIDRs or start-end), built once per feed version and queried per request by binary
// search. Ranges may nest (AWS publishes a /16 and /24s inside it): a lookup returns the most specific match.
import { ipv4ToInt, ipv6ToBigInt, type ParsedRange } from "../net/ip-parse";

// The one CIDR parser lives with the IP parser (server/net/ip-parse.ts); re-exported for the feed modules.
export { ipv6ToBigInt, parseCidr, type ParsedRange } from "../net/ip-parse";

interface Side<N> {
  starts: N[];
  ends: N[];
  labels: number[];
  maxEnd: N[];
}

function buildSide<N extends number | bigint>(rows: { start: N; end: N; label: number }[]): Side<N> {
  rows.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.end > b.end ? -1 : 1));
  const side: Side<N> = { starts: [], ends: [], labels: [], maxEnd: [] };
  let max: N | null = null;
  for (const r of rows) {
    side.starts.push(r.start);
    side.ends.push(r.end);
    side.labels.push(r.label);
    max = max === null || r.end > max ? r.end : max;
    side.maxEnd.push(max);
  }
  return side;
}

function find<N extends number | bigint>(side: Side<N>, x: N): number {
  let lo = 0;
  let hi = side.starts.length - 1;
  let idx = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (side.starts[mid]! <= x) {
      idx = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  // Walk back over earlier (wider) ranges that may still contain x; maxEnd stops the walk early.
  for (let j = idx; j >= 0 && side.maxEnd[j]! >= x; j--) if (side.ends[j]! >= x) return side.labels[j]!;
  return -1;
}

export class IpRangeSet<L> {
  private constructor(
    private readonly v4: Side<number>,
    private readonly v6: Side<bigint>,
    private readonly labels: L[],
    readonly size: number,
  ) {}

  static build<L>(entries: Iterable<{ range: ParsedRange; label: L }>): IpRangeSet<L> {
    const labels: L[] = [];
    const index = new Map<L, number>();
    const v4: { start: number; end: number; label: number }[] = [];
    const v6: { start: bigint; end: bigint; label: number }[] = [];
    for (const { range, label } of entries) {
      let li = index.get(label);
      if (li === undefined) {
        li = labels.push(label) - 1;
        index.set(label, li);
      }
      if (range.version === 4) v4.push({ start: range.start, end: range.end, label: li });
      else v6.push({ start: range.start, end: range.end, label: li });
    }
    return new IpRangeSet(buildSide(v4), buildSide(v6), labels, v4.length + v6.length);
  }

  /** The label of the most specific range holding the (canonical) address, or null. */
  lookup(address: string): L | null {
    if (address.includes(":")) {
      const n = ipv6ToBigInt(address);
      if (n === null) return null;
      const i = find(this.v6, n);
      return i < 0 ? null : this.labels[i]!;
    }
    const n = ipv4ToInt(address);
    if (n < 0) return null;
    const i = find(this.v4, n);
    return i < 0 ? null : this.labels[i]!;
  }
}

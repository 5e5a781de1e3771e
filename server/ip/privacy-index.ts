// Every evidence list (published ranges of 22 providers, the Tor exit list, VPN exit lists, X4BNet's VPN and
// datacenter ranges and the MISP scanner lists: about 100,000 CIDRs) folded into one
// immutable structure: the address space cut into elementary intervals, each pointing at the set of ranges that
// cover it, most specific first. A lookup is one binary search over the interval starts, whatever the number of
// lists; overlapping lists (Google Cloud and Googlebot, Cloudflare and iCloud Private Relay) all come back.
// Built once when the feeds load (in slices that yield to the event loop), and again only when a refresh installs
// new data.
import { parseCidr, ipv6ToBigInt } from "../feeds/ip-range-set";
import {
  EVIDENCE_KINDS,
  type Confidence,
  type EvidenceKind,
  type MatchBasis,
  type RangeList,
} from "../feeds/definitions/ranges";
import { classifyIp, ipv4ToInt } from "../net/ip";

export interface EvidenceList {
  feed: string;
  kind: EvidenceKind;
  provider: string;
  list: string;
  /** Why the list says it (an operator's own exits, a network derived from ASNs, ...) and how sure a match is. */
  basis: MatchBasis;
  confidence: Confidence;
  /** When the list was fetched from its source (the shipped snapshot's date, or the refresh's). */
  snapshotDate: Date;
  origin: "shipped" | "refreshed";
}

export interface IndexedRange {
  list: EvidenceList;
  range: string;
  /** Region and service where the provider's own file names them (AWS, Google Cloud, Oracle, Azure). */
  region: string | null;
  service: string | null;
}

export interface IndexSource {
  list: EvidenceList;
  ranges: RangeList["entries"] | Iterable<string>;
}

interface Side<N> {
  /** Start of each elementary interval, ascending; an interval ends where the next begins. */
  starts: N[];
  /** Index into `sets` of each interval, -1 when no range covers it. */
  setOf: Int32Array;
}

const KIND_RANK = new Map<EvidenceKind, number>(EVIDENCE_KINDS.map((k, i) => [k, i]));

// Work between two looks at the clock when building without blocking (buildAsync), and the longest a slice may hold
// the event loop before the build yields (start-up probes and requests are answered in between).
const STEP_ITEMS = 2048;
const SLICE_MS = 20;

function* buildSide<N extends number | bigint>(
  rows: { start: N; after: N; id: number }[],
  order: (a: number, b: number) => number,
  sets: number[][],
  setIds: Map<string, number>,
): Generator<void, Side<N>> {
  const events: { at: N; id: number; add: boolean }[] = [];
  for (const r of rows) events.push({ at: r.start, id: r.id, add: true }, { at: r.after, id: r.id, add: false });
  yield;
  events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  yield;
  const active = new Set<number>();
  const starts: N[] = [];
  const setOf: number[] = [];
  for (let i = 0, step = 0; i < events.length; step++) {
    if (step % STEP_ITEMS === 0) yield;
    const at = events[i]!.at;
    for (; i < events.length && events[i]!.at === at; i++) {
      const e = events[i]!;
      if (e.add) active.add(e.id);
      else active.delete(e.id);
    }
    let set = -1;
    if (active.size) {
      const ids = [...active].sort(order);
      const key = ids.join(",");
      set = setIds.get(key) ?? -1;
      if (set < 0) {
        set = sets.push(ids) - 1;
        setIds.set(key, set);
      }
    }
    if (setOf.length && setOf[setOf.length - 1] === set) continue; // same cover as the interval before: merge
    starts.push(at);
    setOf.push(set);
  }
  return { starts, setOf: Int32Array.from(setOf) };
}

function search<N extends number | bigint>(side: Side<N>, x: N): number {
  let lo = 0;
  let hi = side.starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (side.starts[mid]! <= x) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? -1 : side.setOf[found]!;
}

export class PrivacyIndex {
  private constructor(
    private readonly ranges: IndexedRange[],
    private readonly sets: IndexedRange[][],
    private readonly v4: Side<number>,
    private readonly v6: Side<bigint>,
    readonly lists: EvidenceList[],
    readonly buildMs: number,
  ) {}

  /** Number of ranges indexed and of elementary intervals (the structure's size). */
  get size(): { ranges: number; intervals: number } {
    return { ranges: this.ranges.length, intervals: this.v4.starts.length + this.v6.starts.length };
  }

  /** Builds the index in one go (a refresh installing new data, tests). */
  static build(sources: IndexSource[]): PrivacyIndex {
    const steps = PrivacyIndex.buildSteps(sources);
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
    }
  }

  /** The same build, giving the event loop a turn at least every SLICE_MS (the load at start-up). */
  static async buildAsync(sources: IndexSource[]): Promise<PrivacyIndex> {
    const steps = PrivacyIndex.buildSteps(sources);
    let sliceStarted = performance.now();
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      if (performance.now() - sliceStarted >= SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
    }
  }

  /** The build as steps: it yields every STEP_ITEMS ranges or intervals, and around the sorts. */
  private static *buildSteps(sources: IndexSource[]): Generator<void, PrivacyIndex> {
    const t0 = performance.now();
    const ranges: IndexedRange[] = [];
    const prefix: number[] = [];
    const v4: { start: number; after: number; id: number }[] = [];
    const v6: { start: bigint; after: bigint; id: number }[] = [];
    let step = 0;
    for (const src of sources) {
      for (const item of src.ranges) {
        if (step++ % STEP_ITEMS === 0) yield;
        const cidr = typeof item === "string" ? item : item.cidr;
        const r = typeof item === "string" ? parseCidr(item) : item.range;
        if (!r) continue;
        // Published lists are not always clean (Vultr's geofeed carries the documentation prefix 2001:db8::/32):
        // special-purpose space belongs to no provider, and classifying it would contradict the bogon answer.
        if (classifyIp(cidr.split("/")[0]!).scope !== "public") continue;
        const range = cidr.includes("/") ? cidr : `${cidr}/${r.version === 4 ? 32 : 128}`;
        const extra = typeof item === "string" ? null : item;
        const id =
          ranges.push({ list: src.list, range, region: extra?.region ?? null, service: extra?.service ?? null }) - 1;
        if (r.version === 4) {
          prefix.push(32 - Math.log2(r.end - r.start + 1));
          v4.push({ start: r.start, after: r.end + 1, id });
        } else {
          prefix.push(128 - (r.end - r.start + 1n).toString(2).length + 1);
          v6.push({ start: r.start, after: r.end + 1n, id });
        }
      }
    }
    // Most specific first: the narrower range, then the more telling kind (a Tor exit before the cloud it runs in).
    const order = (a: number, b: number) =>
      prefix[b]! - prefix[a]! || KIND_RANK.get(ranges[a]!.list.kind)! - KIND_RANK.get(ranges[b]!.list.kind)! || a - b;
    const setIdx: number[][] = [];
    const setIds = new Map<string, number>();
    const side4 = yield* buildSide(v4, order, setIdx, setIds);
    const side6 = yield* buildSide(v6, order, setIdx, setIds);
    const sets = setIdx.map((ids) => ids.map((id) => ranges[id]!));
    return new PrivacyIndex(
      ranges,
      sets,
      side4,
      side6,
      sources.map((s) => s.list),
      performance.now() - t0,
    );
  }

  /** Every indexed range holding the canonical address, most specific first (an empty array when none). */
  lookup(address: string): readonly IndexedRange[] {
    let set: number;
    if (address.includes(":")) {
      const n = ipv6ToBigInt(address);
      set = n === null ? -1 : search(this.v6, n);
    } else {
      const n = ipv4ToInt(address);
      set = n < 0 ? -1 : search(this.v4, n);
    }
    return set < 0 ? NONE : this.sets[set]!;
  }
}

const NONE: readonly IndexedRange[] = Object.freeze([]);

// In-process timing of the privacy classification (server/ip/privacy.ts): the build time and memory of the one
// interval index over every evidence list, and the cost of classifying one address, IPv4 and IPv6, against
// addresses drawn from the lists and addresses in none. Also times a lookup in an index of the same lists
// repeated 4 times over, to show that the cost follows the number of intervals (log n), not the number of lists.
// Prints one JSON line. Run by bench/in-process.ts; no server, no store (the feeds answer from the shipped data).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { getFeedSync } from "../server/feeds/loader";
import { torExitsFeed } from "../server/feeds/definitions/tor-exits";
import { classifyPrivacy, RANGE_FEEDS } from "../server/ip/privacy";
import { PrivacyIndex, type IndexSource } from "../server/ip/privacy-index";

export interface PrivacyFigures {
  ranges: number;
  intervals: number;
  lists: number;
  buildMs: { first: number; median: number };
  heapMiB: number;
  /** Microseconds per classification (classifyPrivacy, with its match objects), by address mix. */
  usPerAddress: Record<string, number>;
  /** Microseconds per bare index lookup with the lists as shipped and with 4 copies of every list (92 lists). */
  usPerLookup: { shipped: number; fourTimesTheLists: number };
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

function sources(copies: number): IndexSource[] {
  const out: IndexSource[] = [];
  for (let c = 0; c < copies; c++) {
    for (const d of RANGE_FEEDS) {
      const s = getFeedSync(d);
      out.push({
        list: { feed: `${d.name}#${c}`, ...d.evidence, snapshotDate: s.fetchedAt, origin: s.origin },
        ranges: s.data.entries,
      });
    }
    const tor = getFeedSync(torExitsFeed);
    out.push({
      list: {
        feed: `tor-exits#${c}`,
        kind: "tor",
        provider: "Tor",
        list: "exit-addresses",
        basis: "exit_list",
        confidence: "high",
        snapshotDate: tor.fetchedAt,
        origin: tor.origin,
      },
      ranges: tor.data,
    });
  }
  return out;
}

function timeEach(addresses: string[], fn: (a: string) => unknown, minMs = 400): number {
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < minMs) for (const a of addresses) (fn(a), n++);
  return ((performance.now() - t0) * 1000) / n;
}

/** One address inside each of the first `per` ranges of every list (network address + 1). */
function listed(per: number, v6: boolean): string[] {
  const out: string[] = [];
  for (const d of RANGE_FEEDS) {
    const lines = readFileSync(d.snapshotPath, "utf8")
      .split("\n")
      .filter((l) => l && l.includes(":") === v6)
      .slice(0, per);
    for (const l of lines) {
      const [net] = l.split("/") as [string];
      if (v6) out.push(net.endsWith("::") ? `${net}1` : net);
      else out.push(net.replace(/\.(\d+)$/, (_, x: string) => `.${Math.min(255, Number(x) + 1)}`));
    }
  }
  return out;
}

const UNLISTED_V4 = Array.from({ length: 256 }, (_, i) => `73.${(i * 7) % 256}.${i}.${((i * 13) % 254) + 1}`);
const UNLISTED_V6 = Array.from({ length: 256 }, (_, i) => `2a02:8108:${i.toString(16)}::${(i * 31).toString(16)}`);

// Loads every feed from its shipped file first, so the build time below is the index alone.
const built = sources(1);
if (global.gc) global.gc();
const heapBefore = process.memoryUsage().heapUsed;
const first = PrivacyIndex.build(built);
if (global.gc) global.gc();
const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
const builds = [first.buildMs];
for (let i = 0; i < 4; i++) builds.push(PrivacyIndex.build(built).buildMs);
builds.sort((a, b) => a - b);
const big = PrivacyIndex.build(sources(4));

const mixes: Record<string, string[]> = {
  "IPv4 listed": listed(20, false),
  "IPv4 in no list": UNLISTED_V4,
  "IPv6 listed": listed(20, true),
  "IPv6 in no list": UNLISTED_V6,
};
const usPerAddress: Record<string, number> = {};
for (const [name, addrs] of Object.entries(mixes))
  usPerAddress[name] = round(
    timeEach(addrs, (a) => classifyPrivacy(a, null, first)),
    3,
  );
const all = Object.values(mixes).flat();
const out: PrivacyFigures = {
  ranges: first.size.ranges,
  intervals: first.size.intervals,
  lists: first.lists.length,
  buildMs: { first: round(first.buildMs, 1), median: round(builds[2]!, 1) },
  heapMiB: round(heapMiB, 1),
  usPerAddress,
  usPerLookup: {
    shipped: round(
      timeEach(all, (a) => first.lookup(a)),
      3,
    ),
    fourTimesTheLists: round(
      timeEach(all, (a) => big.lookup(a)),
      3,
    ),
  },
};
console.log(JSON.stringify(out));

// Coverage of the IP evidence on addresses no test chose (issue 43, "Done when"): random hosts inside random ranges
// of the published lists in ../shared/data/privacy (X4BNet's VPN and datacenter ranges, the providers' own exit
// lists, the MISP scanner lists) and, for the false positives, random hosts of ten well-known consumer ISPs' address
// space from the bundled ASN database. Each address is answered by getIpReputation, the object GET /v1/ip/{ip}
// answers, from the shipped snapshots (an empty embedded store of its own, as the benchmark's reference). Prints
// one line per category: the share recognised against the issue's threshold, the share of those answers that name
// provider, basis, confidence, list and date, and what the misses were taken for. Exits 1 when a threshold fails.
//
//   npx tsx bench/privacy-coverage.ts                  # 2,000 addresses per category, seed 43
//   COVERAGE_PER=5000 COVERAGE_SEED=7 npx tsx bench/privacy-coverage.ts
//   COVERAGE_DATA=/path/to/privacy npx tsx bench/privacy-coverage.ts
//
// The addresses are drawn from the same published lists the service ships, so the figures measure how the index,
// its precedence between lists and its answers treat those lists' space (shadowing, a provider's exit named as VPN
// and not as hosting, an address in a VPN range answered as something else, a consumer network swallowed by a wide
// hosting range), not how far the lists reach beyond themselves.
//
// X4BNet derives part of its VPN ranges from the ASNs of CDNs that carry Cloudflare WARP, and Apple's iCloud Private
// Relay egresses sit inside those CDNs' ranges (about three in ten of the IPv4 sample). The service answers such an
// address as what Apple's own list says it is, a relay (`relay`, no `vpn` or `hosting` flag: ordinary Safari users,
// as ipinfo's and Censys's `relay` flag treats them), not as a VPN exit or a datacenter. So in the "VPN or hosting"
// categories an address inside Apple's published egress ranges (the shipped data/feeds/relay-icloud-private-relay.txt)
// is counted apart, not in the share: `relay_egress` says how many there were and how many were answered as a relay
// (at least 95 % must be, or the category fails), and `share_with_relay_egress` gives the share as if they counted.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

const DATA = process.env.COVERAGE_DATA ?? path.resolve(import.meta.dirname, "../../shared/data/privacy");
const PER = Math.max(100, Math.min(50_000, Number(process.env.COVERAGE_PER ?? 2000)));
const SEED = Number(process.env.COVERAGE_SEED ?? 43);

/** Consumer ISPs whose customers must stay unflagged (AS number: name). */
const CONSUMER_ASNS: Record<number, string> = {
  7922: "Comcast",
  3320: "Deutsche Telekom",
  3215: "Orange",
  2856: "BT",
  701: "Verizon",
  7018: "AT&T",
  20115: "Charter",
  3209: "Vodafone Germany",
  12322: "Free",
  3352: "Telefonica Spain",
};

// mulberry32: a small seeded generator, so a run can be repeated address for address.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(SEED);
const randomBig = (n: bigint): bigint => {
  // uniform enough in [0, n) for sampling: 64 random bits at a time
  let r = 0n;
  for (let bits = 0n; bits < BigInt(n.toString(2).length) + 16n; bits += 32n)
    r = (r << 32n) | BigInt(Math.floor(random() * 4294967296));
  return r % n;
};

function v4ToBig(a: string): bigint {
  return a.split(".").reduce((n, p) => (n << 8n) | BigInt(Number(p)), 0n);
}
function v6ToBig(a: string): bigint {
  const [head, tail] = a.includes("::") ? (a.split("::") as [string, string]) : [a, ""];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g || "0", 16)), 0n);
}
function bigToV4(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join(".");
}
function bigToV6(n: bigint): string {
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((s) => ((n >> s) & 0xffffn).toString(16));
  return groups.join(":");
}

/** [first, last] of a CIDR or a single address. */
interface Range {
  v6: boolean;
  first: bigint;
  last: bigint;
}
function cidrRange(s: string): Range | null {
  const [addr, len] = s.trim().split("/") as [string, string | undefined];
  if (!addr) return null;
  const v6 = addr.includes(":");
  if (!v6 && !/^\d+\.\d+\.\d+\.\d+$/.test(addr)) return null;
  const bits = v6 ? 128 : 32;
  const prefix = len === undefined ? bits : Number(len);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits) return null;
  const base = v6 ? v6ToBig(addr) : v4ToBig(addr);
  const size = 1n << BigInt(bits - prefix);
  const first = (base / size) * size;
  return { v6, first, last: first + size - 1n };
}

/** A random host of the range: not its network or broadcast address when it has more than two. */
function hostIn(r: Range): string {
  let lo = r.first;
  let hi = r.last;
  if (hi - lo >= 3n) {
    lo += 1n;
    hi -= 1n;
  }
  const n = lo + randomBig(hi - lo + 1n);
  return r.v6 ? bigToV6(n) : bigToV4(n);
}

/** ASN numbers of an X4BNet ASN list ("AS9009 # M247, GB (NordVPN)" a line). */
const asnsOf = (file: string) =>
  new Set(linesOf(file).flatMap((l) => (/^AS(\d+)/.exec(l) ? [Number(/^AS(\d+)/.exec(l)![1])] : [])));

/** Hosts drawn in proportion to the ranges' sizes: every address of the space equally likely. */
function sampleByAddress(ranges: Range[], count: number): string[] {
  const ends: bigint[] = [];
  let total = 0n;
  for (const r of ranges) ends.push((total += r.last - r.first + 1n));
  const out = new Set<string>();
  for (let tries = 0; out.size < count && tries < count * 5; tries++) {
    const x = randomBig(total);
    let lo = 0;
    let hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    const r = ranges[lo]!;
    const n = r.first + (x - (ends[lo]! - (r.last - r.first + 1n)));
    out.add(r.v6 ? bigToV6(n) : bigToV4(n));
  }
  return [...out];
}

function sample(ranges: Range[], count: number): string[] {
  const out = new Set<string>();
  for (let tries = 0; out.size < count && tries < count * 5; tries++)
    out.add(hostIn(ranges[Math.floor(random() * ranges.length)]!));
  return [...out];
}

const linesOf = (file: string) =>
  readFileSync(path.join(DATA, file), "utf8")
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean);
const rangesOf = (...files: string[]) =>
  files.flatMap(linesOf).flatMap((l) => {
    const r = cidrRange(l);
    return r ? [r] : [];
  });

/** Apple's published iCloud Private Relay egress ranges, as the service ships them, sorted for a binary search. */
const relayEgress = readFileSync(
  path.resolve(import.meta.dirname, "../data/feeds/relay-icloud-private-relay.txt"),
  "utf8",
)
  .split("\n")
  .flatMap((l) => cidrRange(l.replace(/#.*/, "")) ?? [])
  .sort((a, b) => (a.v6 === b.v6 ? (a.first < b.first ? -1 : a.first > b.first ? 1 : 0) : a.v6 ? 1 : -1));

/** Whether Apple's list names the address as an iCloud Private Relay egress. */
function inRelayEgress(ip: string): boolean {
  const v6 = ip.includes(":");
  const n = v6 ? v6ToBig(ip) : v4ToBig(ip);
  let lo = 0;
  let hi = relayEgress.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = relayEgress[mid]!;
    // IPv4 ranges sort before IPv6 ones, each family by its first address (the list's ranges do not overlap).
    const before = r.v6 === v6 ? r.last < n : !r.v6;
    const after = r.v6 === v6 ? r.first > n : r.v6;
    if (before) lo = mid + 1;
    else if (after) hi = mid - 1;
    else return true;
  }
  return false;
}

function scannerRanges(): Range[] {
  const doc = JSON.parse(readFileSync(path.join(DATA, "misp-scanners/scanners.json"), "utf8")) as {
    lists: { name: string; list: string[] }[];
  };
  return doc.lists.flatMap((l) => l.list.flatMap((e) => (cidrRange(e) ? [cidrRange(e)!] : [])));
}

/** The address ranges of these ASNs in the bundled ASN database (RouteViews, NRO, DB-IP via ip-location-db). */
function asnRanges(asns: ReadonlySet<number>, v6: boolean): Range[] {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve("@ip-location-db/asn/package.json"));
  const out: Range[] = [];
  for (const line of readFileSync(path.join(dir, v6 ? "asn-ipv6.csv" : "asn-ipv4.csv"), "utf8").split("\n")) {
    const [from, to, asn] = line.split(",");
    if (!from || !to || !asns.has(Number(asn))) continue;
    out.push(v6 ? { v6, first: v6ToBig(from), last: v6ToBig(to) } : { v6, first: v4ToBig(from), last: v4ToBig(to) });
  }
  return out;
}

type Rep = Awaited<ReturnType<typeof import("../server/ip/reputation").getIpReputation>>;
type ClassName = "tor" | "vpn" | "relay" | "hosting" | "scanner";
const CLASSES: ClassName[] = ["tor", "vpn", "relay", "hosting", "scanner"];

interface Category {
  name: string;
  target: string;
  /** The goal: at least (or at most, for the consumer ISPs) this share. */
  goal: { atLeast?: number; atMost?: number };
  addresses: string[];
  /** Recognised, and the class whose answer must be complete. */
  hit(rep: Rep): ClassName | null;
  /** Addresses Apple publishes as iCloud Private Relay egress are counted apart (see the top of this file). */
  relayApart?: boolean;
}

const consumerSet = new Set(Object.keys(CONSUMER_ASNS).map(Number));
const flagged = (rep: Rep) => CLASSES.filter((c) => rep.privacy.classes[c].flag);
const complete = (rep: Rep, c: ClassName) => {
  const x = rep.privacy.classes[c];
  return Boolean(x.flag && x.provider && x.basis && x.confidence && x.list && x.snapshotDate);
};
/** What a miss was taken for: its flagged classes and network type. */
const takenFor = (rep: Rep) => `${flagged(rep).join("+") || "no class"} / ${rep.network.type}`;

async function main() {
  // An empty embedded store of its own: the feeds answer from the shipped snapshots.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "privacy-coverage-"));
  process.env.SERVICE_DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  delete process.env.SERVICE_DB_SCHEMA;
  const { getIpReputation, warmIpFeeds } = await import("../server/ip/reputation");
  await warmIpFeeds();

  const half = Math.floor(PER / 2);
  const vpnOrHosting = (rep: Rep): ClassName | null =>
    rep.privacy.classes.vpn.flag ? "vpn" : rep.privacy.classes.hosting.flag ? "hosting" : null;
  const categories: Category[] = [
    {
      name: "published VPN exits (Mullvad, PIA, Proton VPN provider lists)",
      target: "VPN",
      goal: { atLeast: 0.9 },
      addresses: sample(
        rangesOf("x4bnet/provider-mullvad.txt", "x4bnet/provider-pia.txt", "x4bnet/provider-protonvpn.txt"),
        PER,
      ),
      hit: (rep) => (rep.privacy.classes.vpn.flag ? "vpn" : null),
    },
    {
      name: "VPN operators' networks, IPv4 (X4BNet vpn-ipv4)",
      target: "VPN or hosting",
      relayApart: true,
      goal: { atLeast: 0.95 },
      addresses: sample(rangesOf("x4bnet/vpn-ipv4.txt"), half),
      hit: vpnOrHosting,
    },
    {
      name: "VPN operators' networks, IPv6 (X4BNet vpn-ipv6)",
      target: "VPN or hosting",
      relayApart: true,
      goal: { atLeast: 0.95 },
      addresses: sample(rangesOf("x4bnet/vpn-ipv6.txt"), half),
      hit: vpnOrHosting,
    },
    {
      name: "hosting and datacenter ranges, IPv4 (X4BNet datacenter-ipv4)",
      target: "VPN or hosting",
      relayApart: true,
      goal: { atLeast: 0.95 },
      addresses: sample(rangesOf("x4bnet/datacenter-ipv4.txt"), half),
      hit: vpnOrHosting,
    },
    {
      name: "hosting and datacenter ranges, IPv6 (X4BNet datacenter-ipv6)",
      target: "VPN or hosting",
      relayApart: true,
      goal: { atLeast: 0.95 },
      addresses: sample(rangesOf("x4bnet/datacenter-ipv6.txt"), half),
      hit: vpnOrHosting,
    },
    {
      name: "internet scanners (MISP warninglists, 32 lists)",
      target: "scanner, organisation named",
      goal: { atLeast: 0.8 },
      addresses: sample(scannerRanges(), PER),
      hit: (rep) => (rep.privacy.classes.scanner.flag && rep.privacy.classes.scanner.provider ? "scanner" : null),
    },
    {
      name: "addresses of X4BNet's 15 VPN ASNs (vpn-asn.txt), from the ASN database, IPv4 and IPv6",
      target: "VPN or hosting",
      relayApart: true,
      goal: { atLeast: 0.95 },
      addresses: [
        ...sample(asnRanges(asnsOf("x4bnet/vpn-asn.txt"), false), half),
        ...sample(asnRanges(asnsOf("x4bnet/vpn-asn.txt"), true), half),
      ],
      hit: vpnOrHosting,
    },
    {
      name: "addresses of X4BNet's 906 hosting ASNs (datacenter-asn.txt), from the ASN database, IPv4 and IPv6",
      target: "VPN or hosting",
      relayApart: true,
      goal: { atLeast: 0.95 },
      addresses: [
        ...sample(asnRanges(asnsOf("x4bnet/datacenter-asn.txt"), false), half),
        ...sample(asnRanges(asnsOf("x4bnet/datacenter-asn.txt"), true), half),
      ],
      hit: vpnOrHosting,
    },
    ...(
      [
        [false, "by range", sample],
        [false, "by address", sampleByAddress],
        [true, "by range", sample],
        [true, "by address", sampleByAddress],
      ] as const
    ).map(([v6, how, draw]) => ({
      name: `consumer ISPs, IPv${v6 ? 6 : 4}, ${how} (${Object.entries(CONSUMER_ASNS)
        .map(([asn, n]) => `${n} AS${asn}`)
        .join(", ")})`,
      target: "flagged (any class, or a hosting, service or anonymiser network)",
      goal: { atMost: 0.01 },
      addresses: draw(asnRanges(consumerSet, v6), half),
      hit: (rep: Rep): ClassName | null =>
        flagged(rep)[0] ?? (["hosting", "service", "anonymizer"].includes(rep.network.type) ? "hosting" : null),
    })),
  ];

  const results = [];
  let failed = false;
  for (const c of categories) {
    let hits = 0;
    let whole = 0;
    const misses = new Map<string, number>();
    const examples: string[] = [];
    const relay = { addresses: 0, answered_relay: 0 };
    for (const ip of c.addresses) {
      const rep = await getIpReputation(ip);
      if (c.relayApart && inRelayEgress(ip)) {
        relay.addresses++;
        if (rep.privacy.classes.relay.flag) relay.answered_relay++;
        continue;
      }
      const cls = c.hit(rep);
      const consumer = c.goal.atMost !== undefined;
      if (cls) {
        hits++;
        if (!consumer && complete(rep, cls)) whole++;
        if (consumer && examples.length < 10)
          examples.push(
            `${ip} ${takenFor(rep)} (${rep.privacy.classes[cls]?.provider ?? rep.network.provider ?? "?"})`,
          );
      } else if (!consumer) {
        const k = takenFor(rep);
        misses.set(k, (misses.get(k) ?? 0) + 1);
        if (examples.length < 5) examples.push(`${ip} ${k}`);
      }
    }
    const counted = c.addresses.length - relay.addresses;
    const share = counted ? hits / counted : 0;
    const relayOk = relay.answered_relay >= 0.95 * relay.addresses;
    const ok = (c.goal.atLeast !== undefined ? share >= c.goal.atLeast : share <= c.goal.atMost!) && relayOk;
    failed ||= !ok;
    results.push({
      category: c.name,
      target: c.target,
      addresses: counted,
      recognised: hits,
      share: Math.round(share * 10_000) / 100,
      ...(relay.addresses
        ? {
            relay_egress: relay,
            share_with_relay_egress: Math.round((hits / c.addresses.length) * 10_000) / 100,
          }
        : {}),
      goal: c.goal.atLeast !== undefined ? `>= ${c.goal.atLeast * 100} %` : `<= ${c.goal.atMost! * 100} %`,
      ok,
      ...(c.goal.atLeast !== undefined
        ? { answers_complete: hits ? Math.round((whole / hits) * 10_000) / 100 : null }
        : {}),
      ...(misses.size
        ? { misses_taken_for: Object.fromEntries([...misses].sort((a, b) => b[1] - a[1]).slice(0, 5)) }
        : {}),
      ...(examples.length ? { examples } : {}),
    });
  }
  for (const r of results) console.log(JSON.stringify(r));
  console.log(
    `seed ${SEED}, ${PER} addresses per category (${half} per address family where split); ${failed ? "a threshold FAILED" : "every threshold met"}`,
  );
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(failed ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});

// The privacy and network classification of an address, the same object on /ip/{ip}, /ip/{ip}/reputation and the
// `ip` block of /assess: which evidence lists hold it (most specific first, each with its date and range), what
// that makes it (Tor exit, VPN exit, private relay, hosting, CDN, verified crawler, uptime monitor) and who runs it.
// Published ranges decide first; the curated hosting-ASN list only when no range says who is behind the address.
import { CLOUD_FEEDS } from "../feeds/definitions/cloud";
import { EVIDENCE_FEEDS } from "../feeds/definitions/evidence";
import { FRESHNESS_DAYS, type EvidenceKind, type RangeFeedDefinition } from "../feeds/definitions/ranges";
import { torExitsFeed } from "../feeds/definitions/tor-exits";
import { derived, derivedAsync, getFeed, getFeedSync } from "../feeds/loader";
import { PrivacyIndex, type EvidenceList, type IndexSource } from "./privacy-index";

export const RANGE_FEEDS: readonly RangeFeedDefinition[] = [...CLOUD_FEEDS, ...EVIDENCE_FEEDS];

export interface PrivacyMatch {
  kind: EvidenceKind | "hosting_asn";
  provider: string;
  /** The upstream list, in words. */
  list: string;
  /** Feed name (`feeds status`). */
  feed: string;
  /** Date of the list in use, YYYY-MM-DD. */
  snapshotDate: string;
  /** The matching range (CIDR), or the origin AS for the hosting-ASN list. */
  range: string;
  region: string | null;
  /** 1 within the feed's freshness window, 0.5 past it, 0.25 past twice it. */
  weightFactor: number;
  /** True when a more specific match says who is really behind the address (a relay inside a CDN range). */
  shadowed: boolean;
}

export interface Privacy {
  tor: boolean;
  vpn: boolean;
  relay: boolean;
  hosting: boolean;
  cdn: boolean;
  crawler: boolean;
  monitor: boolean;
  /** No open-proxy list exists yet: null with `proxyReason`, never false. */
  proxy: null;
  proxyReason: string;
  service: string | null;
  matches: PrivacyMatch[];
}

export const NO_PROXY_DATA =
  "No open-proxy address list is shipped or configured yet; VPN exits, Tor exits and private relays are reported separately.";

const TOR_LIST = { kind: "tor" as const, provider: "Tor", list: "Tor Project exit-addresses" };
// A crawler, relay or monitor range inside a cloud, CDN or platform range is that service's egress, not a machine
// anyone can rent: the wider match is reported but sets no flag (Googlebot is not "cloud hosting").
const SHADOWING = new Set<EvidenceKind>(["crawler", "relay", "monitor"]);
const SHADOWABLE = new Set<string>(["cloud", "cdn", "platform", "hosting_asn"]);
const DAY_MS = 86_400_000;

function listOf(
  def: RangeFeedDefinition | typeof torExitsFeed,
  meta: { kind: EvidenceKind; provider: string; list: string },
): EvidenceList {
  const s = getFeedSync<unknown>(def);
  return { feed: def.name, ...meta, snapshotDate: s.fetchedAt, origin: s.origin };
}

/** The feeds' data objects the index is built from (a new one after a refresh) and the build's input. */
export function privacyIndexInput(): { sources: unknown[]; lists: IndexSource[] } {
  const states = RANGE_FEEDS.map((d) => getFeedSync(d));
  const tor = getFeedSync(torExitsFeed);
  return {
    sources: [...states.map((s) => s.data), tor.data],
    lists: [
      ...RANGE_FEEDS.map((d, i) => ({ list: listOf(d, d.evidence), ranges: states[i]!.data.entries })),
      { list: listOf(torExitsFeed, TOR_LIST), ranges: tor.data },
    ],
  };
}

/** The one index of every evidence list; rebuilt only when a feed's data object changes (a refresh). */
export function getPrivacyIndex(): PrivacyIndex {
  const { sources, lists } = privacyIndexInput();
  return derived("privacy-index", sources, () => PrivacyIndex.build(lists));
}

/**
 * Loads every evidence feed (a refreshed database copy first) and builds the index, in slices that leave the event
 * loop free in between: call once at start.
 */
export async function loadPrivacyIndex(): Promise<PrivacyIndex> {
  await Promise.all([...RANGE_FEEDS.map((d) => getFeed(d)), getFeed(torExitsFeed)]);
  const { sources, lists } = privacyIndexInput();
  return derivedAsync("privacy-index", sources, () => PrivacyIndex.buildAsync(lists));
}

export function ageFactor(kind: EvidenceKind | "hosting_asn", snapshotDate: Date, now = Date.now()): number {
  if (kind === "hosting_asn") return 1;
  const window = FRESHNESS_DAYS[kind];
  const ageDays = (now - snapshotDate.getTime()) / DAY_MS;
  return ageDays > 2 * window ? 0.25 : ageDays > window ? 0.5 : 1;
}

const day = (d: Date) => (d.getTime() > 0 ? d.toISOString().slice(0, 10) : "never");

export interface HostingAsnHit {
  asn: number;
  provider: string;
  kind: string;
  snapshotDate: Date;
}

export function classifyPrivacy(address: string, hostingAsn: HostingAsnHit | null, index = getPrivacyIndex()): Privacy {
  const now = Date.now();
  const matches: PrivacyMatch[] = [];
  let shadowing = false;
  for (const r of index.lookup(address)) {
    const kind = r.list.kind;
    matches.push({
      kind,
      provider: r.list.provider,
      list: r.list.list,
      feed: r.list.feed,
      snapshotDate: day(r.list.snapshotDate),
      range: r.range,
      region: r.region,
      weightFactor: ageFactor(kind, r.list.snapshotDate, now),
      shadowed: shadowing && SHADOWABLE.has(kind),
    });
    if (SHADOWING.has(kind)) shadowing = true;
  }
  const has = (k: string) => matches.some((m) => m.kind === k && !m.shadowed);
  const rangeSaysWho = matches.some((m) => !m.shadowed && m.kind !== "tor");
  if (hostingAsn && !rangeSaysWho) {
    // Behind a range-less address, the origin AS of a hosting company is the evidence (matches list it last).
    matches.push({
      kind: "hosting_asn",
      provider: hostingAsn.provider,
      list: "curated hosting ASN list",
      feed: "hosting-asns",
      snapshotDate: day(hostingAsn.snapshotDate),
      range: `AS${hostingAsn.asn}`,
      region: null,
      weightFactor: 1,
      shadowed: shadowing,
    });
  }
  const first = matches.find((m) => !m.shadowed) ?? null;
  const asnHit = has("hosting_asn");
  const asnCdn = asnHit && hostingAsn?.kind === "cdn";
  return {
    tor: has("tor"),
    vpn: has("vpn"),
    relay: has("relay"),
    hosting: has("cloud") || has("platform") || (asnHit && !asnCdn),
    cdn: has("cdn") || asnCdn,
    crawler: has("crawler"),
    monitor: has("monitor"),
    proxy: null,
    proxyReason: NO_PROXY_DATA,
    service: first ? (first.kind === "tor" ? "Tor exit relay" : first.provider) : null,
    matches,
  };
}

/** The first unshadowed match of a kind (for reasons that name the list and its date). */
export function matchOf(p: Privacy, kind: PrivacyMatch["kind"]): PrivacyMatch | null {
  return p.matches.find((m) => m.kind === kind && !m.shadowed) ?? null;
}

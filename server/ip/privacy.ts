// The privacy and network classification of an address, the same object on /ip/{ip}, /ip/{ip}/reputation and the
// `ip` block of /assess: which evidence lists hold it (most specific first, each with its date, range, basis and
// confidence), what that makes it (Tor exit, VPN exit or VPN network, private relay, internet scanner, hosting, CDN,
// verified crawler, uptime monitor) and who runs it, and per anonymiser class the one answer that decides it.
// Bases are kept apart: a provider's published exit is high confidence; an address in a VPN operator's network or
// ASN (X4BNet), or in a datacenter range or hosting ASN of X4BNet's list, is medium. Published ranges decide who is
// behind an address first; the curated hosting-ASN list only when no operator's own range says it.
import { CLOUD_FEEDS } from "../feeds/definitions/cloud";
import { EVIDENCE_FEEDS } from "../feeds/definitions/evidence";
import {
  datacenterAsnsFeed,
  vpnAsnsFeed,
  X4B_ASN_FEEDS,
  X4B_RANGE_FEEDS,
  type AnnotatedAsn,
} from "../feeds/definitions/privacy-lists";
import {
  AGE_SCHEDULES,
  factorInWords,
  type Confidence,
  type EvidenceKind,
  type MatchBasis,
  type RangeFeedDefinition,
} from "../feeds/definitions/ranges";
import { scannersFeed } from "../feeds/definitions/scanners";
import { torExitsFeed } from "../feeds/definitions/tor-exits";
import { derived, derivedAsync, getFeed, getFeedSync } from "../feeds/loader";
import { PrivacyIndex, type EvidenceList, type IndexSource } from "./privacy-index";

export const RANGE_FEEDS: readonly RangeFeedDefinition[] = [...CLOUD_FEEDS, ...EVIDENCE_FEEDS, ...X4B_RANGE_FEEDS];

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
  /** 1 within the feed's freshness window, then 0.75, 0.5, 0.25 as the list ages (AGE_SCHEDULES, per kind). */
  weightFactor: number;
  /**
   * True when another match says better who is really behind the address (a relay inside a CDN range, a crawler's
   * published range around a scanner list's address).
   */
  shadowed: boolean;
  /** Why the list says it: provider_exit_list, exit_list, published_ranges, scanner_list, vpn_network, ... */
  basis: MatchBasis;
  confidence: Confidence;
  /** The match in words: the list, its basis, the range and the date ("VPN-capable" for a hosting ASN with VPNs). */
  detail: string;
}

/** The anonymiser classes, each answered on its own. */
export const PRIVACY_CLASSES = ["tor", "vpn", "relay", "hosting", "scanner"] as const;
export type PrivacyClass = (typeof PRIVACY_CLASSES)[number];

/** One class's answer: the flag, and when it is set the match that decides it (null fields when it is not). */
export interface ClassAnswer {
  flag: boolean;
  provider: string | null;
  confidence: Confidence | null;
  basis: MatchBasis | null;
  /** The evidence in words. */
  detail: string | null;
  list: string | null;
  feed: string | null;
  snapshotDate: string | null;
  range: string | null;
}

export interface Privacy {
  tor: boolean;
  vpn: boolean;
  relay: boolean;
  hosting: boolean;
  cdn: boolean;
  crawler: boolean;
  monitor: boolean;
  /** An internet-wide scanner (Censys, Shodan, Shadowserver, ...): automated, never a customer. */
  scanner: boolean;
  /** No open-proxy list exists yet: null with `proxyReason`, never false. */
  proxy: null;
  proxyReason: string;
  service: string | null;
  /** Confidence of the headline class (Tor, a provider's VPN exit, relay, scanner, a VPN network, hosting), or null. */
  confidence: Confidence | null;
  classes: Record<PrivacyClass, ClassAnswer>;
  matches: PrivacyMatch[];
}

export const NO_PROXY_DATA =
  "Open proxies are not checked: there is no list of them to check against. VPN exits, Tor exits and private relays are reported separately.";

const TOR_LIST = {
  kind: "tor" as const,
  provider: "Tor",
  list: "Tor Project exit-addresses",
  basis: "exit_list" as const,
  confidence: "high" as const,
};
// A crawler, relay or monitor range inside a cloud, CDN or platform range is that service's egress, not a machine
// anyone can rent: the wider match is reported but sets no flag (Googlebot is not "cloud hosting").
const SHADOWING = new Set<EvidenceKind>(["crawler", "relay", "monitor"]);
const SHADOWABLE = new Set<string>(["cloud", "cdn", "platform", "hosting", "hosting_asn"]);
// Lists of who uses an address (an exit, a scanner), not of whose network it is.
const USER_LISTS = new Set<string>(["tor", "vpn", "scanner"]);
const DAY_MS = 86_400_000;

function listOf(
  def: RangeFeedDefinition | typeof torExitsFeed | typeof scannersFeed,
  meta: { kind: EvidenceKind; provider: string; list: string; basis?: MatchBasis; confidence?: Confidence },
): EvidenceList {
  const s = getFeedSync<unknown>(def);
  return {
    feed: def.name,
    ...meta,
    basis: meta.basis ?? "published_ranges",
    confidence: meta.confidence ?? "high",
    snapshotDate: s.fetchedAt,
    origin: s.origin,
  };
}

/** The feeds' data objects the index is built from (a new one after a refresh) and the build's input. */
export function privacyIndexInput(): { sources: unknown[]; lists: IndexSource[] } {
  const states = RANGE_FEEDS.map((d) => getFeedSync(d));
  const tor = getFeedSync(torExitsFeed);
  const scanners = getFeedSync(scannersFeed);
  return {
    sources: [...states.map((s) => s.data), tor.data, scanners.data],
    lists: [
      ...RANGE_FEEDS.map((d, i) => ({
        list: listOf(d, states[i]!.origin === "shipped" ? { ...d.evidence, ...d.shippedEvidence } : d.evidence),
        ranges: states[i]!.data.entries,
      })),
      { list: listOf(torExitsFeed, TOR_LIST), ranges: tor.data },
      // One list per MISP warninglist, so each match names its organisation.
      ...scanners.data.lists.map((l) => ({
        list: listOf(scannersFeed, {
          kind: "scanner",
          provider: l.organisation,
          list: `MISP warninglist ${l.name}`,
          basis: "scanner_list",
        }),
        ranges: l.entries,
      })),
    ],
  };
}

/**
 * The feeds' data objects alone, which say whether the index is current: every request asks, so the lists' descriptions
 * (sixty of them, one per MISP scanner list) are made only when the index is built.
 */
function privacyIndexSources(): unknown[] {
  const out: unknown[] = RANGE_FEEDS.map((d) => getFeedSync(d).data);
  out.push(getFeedSync(torExitsFeed).data, getFeedSync(scannersFeed).data);
  return out;
}

/** The one index of every evidence list; rebuilt only when a feed's data object changes (a refresh). */
export function getPrivacyIndex(): PrivacyIndex {
  return derived("privacy-index", privacyIndexSources(), () => PrivacyIndex.build(privacyIndexInput().lists));
}

/**
 * Loads every evidence feed (a refreshed database copy first) and builds the index, in slices that leave the event
 * loop free in between: call once at start.
 */
export async function loadPrivacyIndex(): Promise<PrivacyIndex> {
  await Promise.all([
    ...RANGE_FEEDS.map((d) => getFeed(d)),
    getFeed(torExitsFeed),
    getFeed(scannersFeed),
    ...X4B_ASN_FEEDS.map((d) => getFeed(d)),
  ]);
  const { sources, lists } = privacyIndexInput();
  return derivedAsync("privacy-index", sources, () => PrivacyIndex.buildAsync(lists));
}

/** The weight factor of a list of `kind` dated `snapshotDate` (AGE_SCHEDULES); the hosting-ASN list is curated: 1. */
export function ageFactor(kind: EvidenceKind | "hosting_asn", snapshotDate: Date, now = Date.now()): number {
  if (kind === "hosting_asn") return 1;
  // In the whole days the reason says (ageDays of the list's date), so "7 days old" never counts at half; a list
  // never fetched is as old as can be.
  const age = snapshotDate.getTime() > 0 ? ageDays(day(snapshotDate), now) : Number.POSITIVE_INFINITY;
  let factor = 1;
  for (const [days, f] of AGE_SCHEDULES[kind].steps) if (age > days) factor = f;
  return factor;
}

/** A list's age in whole days (0 for a list dated in the future). */
export function ageDays(snapshotDate: string, now = Date.now()): number {
  const t = Date.parse(`${snapshotDate}T00:00:00Z`);
  return Number.isNaN(t) ? 0 : Math.max(0, Math.floor((now - t) / DAY_MS));
}

/**
 * "in the 2026-08-22 list (100 days old)", and past the kind's window what the age means and how much the match still
 * counts: "in the 2024-08-20 list (832 days old: Tor exits change daily, so from a list this old it may no longer be
 * one; it counts at a quarter of its weight)". One wording for /ip and /assess.
 */
export function listAge(m: PrivacyMatch, now = Date.now()): string {
  const part = m.weightFactor === 0.5 ? "half" : `${factorInWords(m.weightFactor)} of`;
  if (m.snapshotDate === "never") return `in a list never fetched (it counts at ${part} its weight)`;
  const age = `${ageDays(m.snapshotDate, now)} days old`;
  if (m.weightFactor === 1) return `in the ${m.snapshotDate} list (${age})`;
  const why = m.kind === "hosting_asn" ? "" : `: ${AGE_SCHEDULES[m.kind].why}`;
  return `in the ${m.snapshotDate} list (${age}${why}; it counts at ${part} its weight)`;
}

const day = (d: Date) => (d.getTime() > 0 ? d.toISOString().slice(0, 10) : "never");

export interface HostingAsnHit {
  asn: number;
  provider: string;
  kind: string;
  snapshotDate: Date;
}

/** The address's origin AS (server/asn/lookup.ts), which names the operator of a VPN or datacenter range. */
export interface OriginAs {
  asn: number;
  organization: string | null;
}

const CONFIDENCE_RANK: Record<Confidence, number> = { high: 0, medium: 1, low: 2 };
const BASIS_WORDS: Record<MatchBasis, string> = {
  provider_exit_list: "the provider's own published exit list",
  exit_list: "the Tor Project's exit list",
  published_ranges: "the operator's own published ranges",
  scanner_list: "a list of the scanner's addresses",
  vpn_network: "a VPN operator's network (derived from its ASN)",
  vpn_asn: "the origin AS is a VPN operator's",
  datacenter_range: "a hosting or datacenter network (derived from its ASN)",
  hosting_asn: "the origin AS is a hosting company's",
};

function annotated(feed: typeof vpnAsnsFeed, asn: number | undefined): AnnotatedAsn | null {
  if (asn === undefined) return null;
  return getFeedSync(feed).data.get(asn) ?? null;
}

export function classifyPrivacy(
  address: string,
  hostingAsn: HostingAsnHit | null,
  index = getPrivacyIndex(),
  origin: OriginAs | null = null,
): Privacy {
  const now = Date.now();
  const asn = origin?.asn ?? hostingAsn?.asn;
  const org = origin?.organization ?? null;
  const vpnAsn = annotated(vpnAsnsFeed, asn);
  const dcAsn = annotated(datacenterAsnsFeed, asn);
  const vpnCapable = vpnAsn !== null;
  // A range derived from ASNs names nobody: the origin AS says whose network it is (by the VPN list's annotation, or
  // by the AS's own name when the list is unsure the network carries VPN exits at all: low confidence then).
  const vpnOperator = (vpnAsn?.doubtful ? org : null) ?? vpnAsn?.operator ?? org ?? "an unnamed VPN operator";
  const doubt = vpnAsn?.doubtful ? `; the VPN ASN list is unsure AS${vpnAsn.asn} carries VPN exits` : "";
  const vpnAsnConfidence = (c: Confidence): Confidence => (vpnAsn?.doubtful ? "low" : c);
  const hostOperator = org ?? dcAsn?.operator ?? hostingAsn?.provider ?? "an unnamed hosting operator";
  const matches: PrivacyMatch[] = [];
  const push = (
    m: Omit<PrivacyMatch, "detail" | "weightFactor">,
    snapshotDate: Date,
    origin: EvidenceKind | "hosting_asn",
  ) => {
    const capable = vpnCapable && (m.kind === "hosting" || m.kind === "hosting_asn" || m.kind === "cloud");
    const onList = vpnAsn?.doubtful ? `, which is unsure it carries VPN exits` : `: ${vpnAsn?.operator ?? vpnOperator}`;
    const unsure = m.kind === "vpn" && m.confidence === "low" ? doubt : "";
    const detail = `${m.shadowed ? "Also in" : "In"} ${m.list} (${m.range}, ${m.snapshotDate}): ${BASIS_WORDS[m.basis]}, ${m.provider}${capable ? `; VPN-capable hosting (AS${asn} is on the VPN ASN list${onList})` : ""}, ${m.confidence} confidence${unsure}${m.shadowed ? "; another match says better who sends from it" : ""}`;
    matches.push({ ...m, weightFactor: ageFactor(origin, snapshotDate, now), detail });
  };
  let shadowing = false;
  const found = index.lookup(address);
  // A Tor exit or a private relay's published egress says who sends from it better than a VPN network around it
  // (X4BNet lists Tor operators' ASNs, and the CDNs' that carry both WARP and iCloud Private Relay), whichever of
  // the two ranges is the narrower.
  const whoSeen = found.some((r) => r.list.kind === "tor" || r.list.kind === "relay");
  // A crawler's or monitor's operator publishing the address as its own egress says who sends from it better than a
  // list of addresses seen scanning (CIRCL's telescope list gives Stretchoid 22 addresses in Bingbot's own ranges).
  const serviceSeen = found.some((r) => r.list.kind === "crawler" || r.list.kind === "monitor");
  for (const r of found) {
    const kind = r.list.kind;
    const provider =
      r.list.basis === "vpn_network"
        ? vpnOperator
        : r.list.basis === "datacenter_range"
          ? hostOperator
          : r.list.provider;
    push(
      {
        kind,
        provider,
        list: r.list.list,
        feed: r.list.feed,
        snapshotDate: day(r.list.snapshotDate),
        range: r.range,
        region: r.region,
        shadowed:
          (shadowing && SHADOWABLE.has(kind)) ||
          (whoSeen && kind === "vpn" && r.list.confidence !== "high") ||
          (serviceSeen && kind === "scanner"),
        basis: r.list.basis,
        confidence: r.list.basis === "vpn_network" ? vpnAsnConfidence(r.list.confidence) : r.list.confidence,
      },
      r.list.snapshotDate,
      kind,
    );
    if (SHADOWING.has(kind)) shadowing = true;
  }
  const has = (k: string) => matches.some((m) => m.kind === k && !m.shadowed);
  // The operator's own lists say who is behind an address; X4BNet's ASN-derived ranges only what kind of network. A
  // Tor, VPN provider's or scanner's list says who uses the address, not whose network it is: the hosting ASN still
  // names the network, so a listed exit keeps the hosting evidence a plain address of its network has.
  const rangeSaysWho = matches.some(
    (m) => !m.shadowed && !USER_LISTS.has(m.kind) && m.basis !== "vpn_network" && m.basis !== "datacenter_range",
  );
  if (vpnAsn && !matches.some((m) => m.kind === "vpn")) {
    const at = getFeedSync(vpnAsnsFeed).fetchedAt;
    push(
      {
        kind: "vpn",
        provider: vpnOperator,
        list: "X4BNet lists_vpn VPN ASN list",
        feed: vpnAsnsFeed.name,
        snapshotDate: day(at),
        range: `AS${vpnAsn.asn}`,
        region: null,
        shadowed: shadowing || whoSeen,
        basis: "vpn_asn",
        confidence: vpnAsnConfidence("medium"),
      },
      at,
      "vpn",
    );
  }
  const hostingRange = ["cloud", "platform", "cdn", "hosting"].some(has);
  if (dcAsn && !hostingRange) {
    const at = getFeedSync(datacenterAsnsFeed).fetchedAt;
    push(
      {
        kind: "hosting",
        provider: hostOperator,
        list: "X4BNet lists_vpn datacenter ASN list",
        feed: datacenterAsnsFeed.name,
        snapshotDate: day(at),
        range: `AS${dcAsn.asn}`,
        region: null,
        shadowed: shadowing,
        basis: "hosting_asn",
        confidence: "medium",
      },
      at,
      "hosting",
    );
  }
  if (hostingAsn && !rangeSaysWho) {
    // Behind a range-less address, the origin AS of a hosting company is the evidence (matches list it last).
    push(
      {
        kind: "hosting_asn",
        provider: hostingAsn.provider,
        list: "curated hosting ASN list",
        feed: "hosting-asns",
        snapshotDate: day(hostingAsn.snapshotDate),
        range: `AS${hostingAsn.asn}`,
        region: null,
        shadowed: shadowing,
        basis: "hosting_asn",
        confidence: "high",
      },
      hostingAsn.snapshotDate,
      "hosting_asn",
    );
  }
  const first = matches.find((m) => !m.shadowed) ?? null;
  const asnHit = has("hosting_asn");
  const asnCdn = asnHit && hostingAsn?.kind === "cdn";
  const classes = {
    tor: classAnswer(matches, ["tor"]),
    vpn: classAnswer(matches, ["vpn"]),
    relay: classAnswer(matches, ["relay"]),
    hosting: classAnswer(
      matches,
      asnCdn ? ["cloud", "platform", "hosting"] : ["cloud", "platform", "hosting", "hosting_asn"],
    ),
    scanner: classAnswer(matches, ["scanner"]),
  };
  const c = classes;
  const headline =
    [c.tor, c.vpn.confidence === "high" ? c.vpn : null, c.relay, c.scanner, c.vpn, c.hosting].find((x) => x?.flag) ??
    null;
  return {
    tor: c.tor.flag,
    vpn: c.vpn.flag,
    relay: c.relay.flag,
    hosting: c.hosting.flag,
    cdn: has("cdn") || asnCdn,
    crawler: has("crawler"),
    monitor: has("monitor"),
    scanner: c.scanner.flag,
    proxy: null,
    service: first ? (first.kind === "tor" ? "Tor exit relay" : first.provider) : null,
    proxyReason: NO_PROXY_DATA,
    confidence: headline?.confidence ?? null,
    classes,
    matches,
  };
}

const NO_CLASS: ClassAnswer = Object.freeze({
  flag: false,
  provider: null,
  confidence: null,
  basis: null,
  detail: null,
  list: null,
  feed: null,
  snapshotDate: null,
  range: null,
});

/** The strongest unshadowed match of the kinds (highest confidence, then the most specific), as a class answer. */
function classAnswer(matches: PrivacyMatch[], kinds: PrivacyMatch["kind"][]): ClassAnswer {
  let best: PrivacyMatch | null = null;
  for (const m of matches) {
    if (m.shadowed || !kinds.includes(m.kind)) continue;
    if (!best || CONFIDENCE_RANK[m.confidence] < CONFIDENCE_RANK[best.confidence]) best = m;
  }
  if (!best) return NO_CLASS;
  return {
    flag: true,
    provider: best.kind === "tor" ? "Tor" : best.provider,
    confidence: best.confidence,
    basis: best.basis,
    detail: best.detail,
    list: best.list,
    feed: best.feed,
    snapshotDate: best.snapshotDate,
    range: best.range,
  };
}

/** The first unshadowed match of a kind (for reasons that name the list and its date). */
export function matchOf(p: Privacy, kind: PrivacyMatch["kind"]): PrivacyMatch | null {
  return p.matches.find((m) => m.kind === kind && !m.shadowed) ?? null;
}

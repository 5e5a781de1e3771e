// Published address ranges as feeds: one feed per provider list (cloud, CDN, platform egress, VPN exits, private
// relay, verified crawlers, uptime monitors), shipped as dated snapshots (one CIDR a line) and refreshable from the
// provider's own list. Every feed also says what a match means (its kind), whose list it is and how long it stays
// fresh; server/ip/privacy-index.ts folds all of them into one lookup structure.
import { feedSourceUrl, shippedFeedFile } from "../config";
import { parseCidr, type ParsedRange } from "../ip-range-set";
import type { FeedDefinition } from "../types";

/**
 * What being in a list means for a risk answer, most telling first: `scanner` is an internet-wide scanner's address
 * (MISP warninglists), `hosting` a datacenter range whose operator publishes no list of its own (X4BNet).
 */
export const EVIDENCE_KINDS = [
  "tor",
  "vpn",
  "relay",
  "scanner",
  "crawler",
  "monitor",
  "platform",
  "cdn",
  "cloud",
  "hosting",
] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/**
 * Why a list says what it says, kept apart because they are not equally strong: an operator's own list of its exits
 * or ranges is proof of who sends from an address; a third party's list of a VPN operator's or a hosting company's
 * networks (derived from their ASNs) only says the address could be one.
 */
export const MATCH_BASES = [
  "provider_exit_list",
  "exit_list",
  "published_ranges",
  "scanner_list",
  "vpn_network",
  "vpn_asn",
  "datacenter_range",
  "hosting_asn",
] as const;
export type MatchBasis = (typeof MATCH_BASES)[number];
export type Confidence = "high" | "medium" | "low";

/**
 * How a list's weight falls with its age, per kind: `steps` are [days, factor] pairs (past `days` the match counts
 * `factor` of its weight; the first step's days are the kind's freshness window). A serious answer ages a list by how
 * fast what it says stops being true, which differs by kind by orders of magnitude:
 * - Tor exits are volunteers' relays that come and go every day: a week-old list already misses many exits and
 *   names some that are gone, so half after 7 days and a quarter after 14.
 * - A VPN provider's exits (Mullvad, PIA, Proton VPN publish them) are servers rented in data centres and kept for
 *   months to years, and an address a provider drops stays in the same data centre; X4BNet's VPN networks are derived
 *   from ASNs, which change more slowly still: full weight for 6 months, three quarters to a year, half to two years.
 * - Scanner organisations (Censys, Shodan, Shadowserver, ...) publish ranges of their own networks that last years,
 *   but some MISP lists are addresses a network telescope saw scanning: full for 3 months, then three quarters, half
 *   after 6 months, a quarter after a year.
 * - Apple's relay egress list is rebuilt as Apple moves egress between its CDN partners: 3 months, then graded.
 * - Crawlers' published ranges (Googlebot, Bingbot) change rarely and mostly grow: 6 months, then graded.
 * - Cloud, CDN, platform and hosting ranges are address space the operator holds for years (a stale list misses new
 *   ranges rather than naming wrong ones): a year at full weight. Uptime monitors move their probes more often: 3
 *   months.
 * A list never counts for nothing: its date and age are in every reason that uses it. The README's "Evidence lists
 * and their age" says the same.
 */
export interface AgeSchedule {
  steps: readonly (readonly [days: number, factor: number])[];
  why: string;
}
const graded = (days: number, why: string): AgeSchedule => ({
  steps: [
    [days, 0.75],
    [days * 2, 0.5],
    [days * 4, 0.25],
  ],
  why,
});
export const AGE_SCHEDULES: Record<EvidenceKind, AgeSchedule> = {
  tor: {
    steps: [
      [7, 0.5],
      [14, 0.25],
    ],
    why: "Tor exits change daily, so from a list this old it may no longer be one",
  },
  vpn: graded(180, "a VPN provider's exits are data-centre servers kept for months to years"),
  relay: graded(90, "Apple moves its relay egress between CDN partners over months"),
  scanner: graded(90, "scanner organisations' ranges last years, but some lists are addresses seen scanning"),
  crawler: graded(180, "crawlers' published ranges change rarely"),
  monitor: graded(90, "uptime monitors move their probes over months"),
  platform: graded(365, "a platform's published ranges are address space it holds for years"),
  cdn: graded(365, "a CDN's published ranges are address space it holds for years"),
  cloud: graded(365, "a cloud's published ranges are address space it holds for years"),
  hosting: graded(365, "hosting networks derived from their ASNs change over years"),
};

/** Freshness window per kind (days): full weight until then (AGE_SCHEDULES says what follows). */
export const FRESHNESS_DAYS = Object.fromEntries(
  Object.entries(AGE_SCHEDULES).map(([kind, s]) => [kind, s.steps[0]![0]]),
) as Record<EvidenceKind, number>;

/** A factor in words: "three quarters", "half", "a quarter". */
export function factorInWords(factor: number): string {
  return factor === 0.75 ? "three quarters" : factor === 0.5 ? "half" : factor === 0.25 ? "a quarter" : String(factor);
}

/** Each kind's name in the freshness sentence, in the order the sentence gives them. */
const FRESHNESS_WORDS: [EvidenceKind, string][] = [
  ["tor", "Tor"],
  ["vpn", "VPN"],
  ["relay", "relay"],
  ["scanner", "scanners"],
  ["crawler", "crawlers"],
  ["cloud", "cloud"],
  ["hosting", "hosting"],
  ["cdn", "CDN"],
  ["platform", "platform"],
  ["monitor", "monitors"],
];

/** FRESHNESS_DAYS in words, for the docs: "Tor 7 days; relay, scanners and monitors 90; VPN and crawlers 180; ...". */
export function freshnessWindowsInWords(): string {
  const groups = new Map<number, string[]>();
  for (const [kind, word] of FRESHNESS_WORDS)
    groups.set(FRESHNESS_DAYS[kind], [...(groups.get(FRESHNESS_DAYS[kind]) ?? []), word]);
  const list = (w: string[]) => (w.length > 1 ? `${w.slice(0, -1).join(", ")} and ${w.at(-1)}` : w[0]!);
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([days, words], i) => `${list(words)} ${days}${i === 0 ? " days" : ""}`)
    .join("; ");
}

export interface RangeEntry {
  cidr: string;
  range: ParsedRange;
  region: string | null;
  service: string | null;
}

export interface RangeList {
  entries: RangeEntry[];
}

export interface EvidenceMeta {
  kind: EvidenceKind;
  /** The operator, e.g. "Amazon Web Services", "Proton VPN", "Googlebot". */
  provider: string;
  /** The upstream list, in words, e.g. "Googlebot googlebot.json". */
  list: string;
  /** Why the list says it (default: the operator's own published ranges) and how sure a match is (default high). */
  basis?: MatchBasis;
  confidence?: Confidence;
}

export type RangeFeedDefinition = FeedDefinition<RangeList> & {
  evidence: EvidenceMeta & { basis: MatchBasis; confidence: Confidence };
  /** What the shipped snapshot is, where it is another list than the one a refresh reads (Google's goog.json). */
  shippedEvidence?: Partial<EvidenceMeta>;
};

type Extracted = { cidr: string; region?: string | null; service?: string | null };
/** A provider-specific reader of a JSON document; null when the document is not in that provider's format. */
export type Extract = (json: unknown) => { entries: Extracted[]; version: string | null } | null;

/** Joins the documents of a feed with several live sources (OpenAI's three lists, Pingdom's v4 and v6). */
export const SOURCE_SEPARATOR = "# ---- next source ----";

// Keys whose addresses are not where traffic comes from (a VPN's entry nodes).
const SKIP_KEYS = new Set(["EntryIP", "entryIp", "domains"]);

/** Every CIDR or address string anywhere in a JSON document (Google's, Bing's, OpenAI's, GitHub's, Proton's lists). */
function walk(node: unknown, out: Extracted[]): void {
  if (typeof node === "string") {
    if (parseCidr(node)) out.push({ cidr: node.trim() });
  } else if (Array.isArray(node)) for (const n of node) walk(n, out);
  else if (node && typeof node === "object")
    for (const [k, v] of Object.entries(node)) if (!SKIP_KEYS.has(k)) walk(v, out);
}

/**
 * One CIDR a line, or a CSV (geofeed, Apple's egress list) whose first field is the CIDR; # comments. `from` and `to`
 * bound the lines read (a large list is read in slices: parseRangeDocumentAsync).
 */
function lines(text: string, out: Extracted[], name: string, rows = text.split("\n"), from = 0, to = rows.length) {
  for (let i = from; i < to; i++) {
    const line = rows[i]!.trim();
    if (!line || line.startsWith("#")) continue;
    const first = line.split(/[,\s]/)[0]!;
    if (parseCidr(first)) out.push({ cidr: first });
    else if (i > 0 || !/[a-z]/i.test(first))
      throw new Error(`${name}: not a CIDR at line ${i + 1}: ${JSON.stringify(line.slice(0, 60))}`);
  }
}

// Lines read between two turns of the event loop when a large list is parsed at start-up.
const LINES_PER_SLICE = 4096;
const turn = () => new Promise((resolve) => setImmediate(resolve));

export function parseRangeDocument(
  name: string,
  raw: Buffer,
  extract?: Extract,
): { data: RangeList; count: number; version: string | null } {
  const found: Extracted[] = [];
  let version: string | null = null;
  for (const part of raw.toString("utf8").split(SOURCE_SEPARATOR)) {
    if (/^\s*[[{]/.test(part)) {
      let json: unknown;
      try {
        json = JSON.parse(part);
      } catch {
        throw new Error(`${name}: not JSON`);
      }
      const got = Array.isArray(json) ? null : (extract?.(json) ?? null);
      if (got) {
        found.push(...got.entries);
        version ??= got.version;
      } else walk(json, found);
    } else lines(part, found, name);
  }
  return { data: { entries: toEntries(name, found) }, count: found.length, version };
}

function toEntries(name: string, found: Extracted[]): RangeEntry[] {
  const entries: RangeEntry[] = [];
  for (const e of found) {
    const range = parseCidr(String(e.cidr));
    if (!range) throw new Error(`${name}: not a CIDR: ${JSON.stringify(String(e.cidr).slice(0, 60))}`);
    entries.push({ cidr: String(e.cidr).trim(), range, region: e.region ?? null, service: e.service ?? null });
  }
  return entries;
}

/**
 * parseRangeDocument for a plain list (one CIDR a line, the large X4BNet lists), giving the event loop a turn every
 * few thousand lines so that start-up probes are answered meanwhile; JSON documents are parsed in one go.
 */
export async function parseRangeDocumentAsync(
  name: string,
  raw: Buffer,
  extract?: Extract,
): Promise<{ data: RangeList; count: number; version: string | null }> {
  const text = raw.toString("utf8");
  if (text.includes(SOURCE_SEPARATOR) || /^\s*[[{]/.test(text)) return parseRangeDocument(name, raw, extract);
  const rows = text.split("\n");
  const entries: RangeEntry[] = [];
  for (let from = 0; from < rows.length; from += LINES_PER_SLICE) {
    const found: Extracted[] = [];
    lines(text, found, name, rows, from, Math.min(rows.length, from + LINES_PER_SLICE));
    entries.push(...toEntries(name, found));
    await turn();
  }
  return { data: { entries }, count: entries.length, version: null };
}

export function rangeFeed(
  o: EvidenceMeta & {
    name: string;
    defaultUrl: string | null;
    license?: string;
    attribution: string;
    extract?: Extract;
    shippedEvidence?: Partial<EvidenceMeta>;
    /** Whom the shipped snapshot credits, where it is another list than the live source's. */
    shippedAttribution?: string;
  },
): RangeFeedDefinition {
  return {
    name: o.name,
    description: `${o.provider}: ${o.list} (${o.kind})`,
    license: o.license ?? "CC0 1.0 (shipped snapshot); the provider's own published list",
    attribution: o.attribution,
    snapshotPath: shippedFeedFile(`${o.name}.txt`),
    sourceUrl: () => feedSourceUrl(o.name, o.defaultUrl),
    evidence: {
      kind: o.kind,
      provider: o.provider,
      list: o.list,
      basis: o.basis ?? "published_ranges",
      confidence: o.confidence ?? "high",
    },
    ...(o.shippedEvidence
      ? {
          shippedEvidence: o.shippedEvidence,
          shipped: {
            description: `${o.shippedEvidence.provider ?? o.provider}: ${o.shippedEvidence.list ?? o.list} (${o.shippedEvidence.kind ?? o.kind})`,
            attribution: o.shippedAttribution ?? o.attribution,
          },
        }
      : {}),
    parse: (raw) => parseRangeDocument(o.name, raw, o.extract),
    parseAsync: (raw) => parseRangeDocumentAsync(o.name, raw, o.extract),
  };
}

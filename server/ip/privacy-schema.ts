// zod contract of the `privacy` object, in the casing of each route: camelCase on /ip/{ip} and /ip/{ip}/reputation,
// snake_case in the `ip` block of /assess. Shared field definitions, so the two stay the same object field by field.
import { z } from "zod";
import { EVIDENCE_KINDS, freshnessWindowsInWords, MATCH_BASES } from "../feeds/definitions/ranges";
import { PRIVACY_CLASSES, type ClassAnswer, type Privacy } from "./privacy";

// The kinds of the range lists, plus the curated hosting-ASN list that matches by origin AS rather than by range.
const KINDS = [...EVIDENCE_KINDS, "hosting_asn"] as const;
const CONFIDENCE = z.enum(["high", "medium", "low"]);

const D = {
  kind: "What the list means: tor exit, vpn (a provider's exit, or a VPN operator's network or ASN: see basis), relay (iCloud Private Relay), scanner (an internet-wide scanner, MISP warninglists), verified crawler, uptime monitor, platform egress, cdn edge, cloud ranges, hosting (a datacenter range or hosting ASN of X4BNet's lists), or hosting_asn (the curated hosting-ASN list, used only when no operator's range says who is behind the address)",
  provider:
    "Who runs the range, e.g. Proton VPN, Mullvad VPN, Censys, iCloud Private Relay, Googlebot, Amazon Web Services; for a VPN network or datacenter range (lists derived from ASNs) the operator of the origin AS, e.g. M247 Europe SRL",
  basis:
    "Why the list says it: provider_exit_list (the VPN provider's own published exits), exit_list (Tor Project), published_ranges (the operator's own ranges), scanner_list (MISP list of a scanner's addresses), vpn_network (X4BNet's ranges of VPN operators' networks), vpn_asn (origin AS on X4BNet's VPN ASN list), datacenter_range (X4BNet's datacenter ranges), hosting_asn (origin AS on a hosting-ASN list)",
  confidence:
    "high for an operator's own list (a provider's exit, published ranges, Tor, scanners, the curated hosting ASNs); medium for a network derived from ASNs (VPN networks and ASNs, datacenter ranges and ASNs): it says what the network is, not that this address is an exit; low for a VPN network or ASN whose annotation on the VPN ASN list doubts it (`AS212238 # Datacamp VPN?`): the operator is then named by its AS",
  detail:
    'The match in words: list, range, date, basis, operator and confidence; a hosting match whose origin AS is also a VPN operator\'s says "VPN-capable hosting"',
  list: "The published list that holds it, e.g. Googlebot googlebot.json",
  feed: "Name of the feed in `feeds status` and `sources`",
  snapshotDate: "Date of the list in use (YYYY-MM-DD): the shipped snapshot's date or the last refresh",
  range: "The matching range (CIDR; a single address as /32 or /128), or the origin AS (AS16509) for hosting_asn",
  region: "Region where the provider's own file names one (after a refresh); null otherwise",
  weightFactor: `1 while the list is within its freshness window (${freshnessWindowsInWords()}), then 0.75 past it, 0.5 past twice it and 0.25 past four times it (a Tor list: 0.5 past 7 days, 0.25 past 14)`,
  shadowed:
    "True when another match says better who really sends from the address (Googlebot inside Google Cloud, a relay inside a CDN, a Tor exit or an iCloud Private Relay egress inside a VPN network X4BNet derived from ASNs, a scanner list's address inside a crawler's or monitor's own published range): reported, but sets no flag",
  proxyReason: "Why `proxy` is null",
};

const flags = {
  tor: z.boolean().describe("A Tor exit relay"),
  vpn: z
    .boolean()
    .describe(
      "A commercial VPN: a provider's published exit (Proton VPN, Mullvad, PIA; high confidence) or an address in a VPN operator's network or ASN (medium; low where the VPN list doubts the network carries VPN exits); `classes.vpn` says which",
    ),
  relay: z.boolean().describe("A privacy relay's egress (iCloud Private Relay): ordinary Safari users, unlike a VPN"),
  hosting: z
    .boolean()
    .describe(
      "A cloud, hosting or platform network (published ranges; X4BNet's datacenter ranges and hosting ASNs; the curated hosting-ASN list; then the organisation name)",
    ),
  cdn: z.boolean().describe("A CDN or reverse-proxy edge (Cloudflare): the real client is behind it"),
  crawler: z
    .boolean()
    .describe(
      "In a verified crawler's published ranges (Googlebot, Bingbot, DuckDuckBot, DuckAssistBot, OpenAI, PerplexityBot)",
    ),
  monitor: z.boolean().describe("An uptime monitor's probe (Pingdom, StatusCake)"),
  scanner: z
    .boolean()
    .describe(
      "An internet-wide scanner's address (Censys, Shodan, Shadowserver, Stretchoid, Rapid7, Onyphe, ...; MISP warninglists): automated, never a customer",
    ),
  proxy: z.null().describe("Always null: no open-proxy list exists yet (see the reason); never read it as false"),
  service: z
    .string()
    .nullable()
    .describe(
      "The named service or operator behind the address (most specific match), e.g. Proton VPN, iCloud Private Relay, Googlebot, Amazon Web Services; null when none",
    ),
};
const matchCommon = {
  kind: z.enum(KINDS).describe(D.kind),
  provider: z.string().describe(D.provider),
  basis: z.enum(MATCH_BASES).describe(D.basis),
  confidence: CONFIDENCE.describe(D.confidence),
  detail: z.string().describe(D.detail),
  list: z.string().describe(D.list),
  feed: z.string().describe(D.feed),
  range: z.string().describe(D.range),
  region: z.string().nullable().describe(D.region),
  shadowed: z.boolean().describe(D.shadowed),
};
const MATCHES = "Every list that holds the address, most specific (narrowest range) first";
const CLASSES =
  "Each anonymiser class answered on its own (tor, vpn, relay, hosting, scanner): the flag and, when set, the provider, confidence, basis, list and date of the strongest match (highest confidence, then the narrowest range); null fields when the flag is false";
const PRIVACY_CONFIDENCE =
  "Confidence of the headline class, in this order: Tor, a provider's VPN exit, relay, scanner, a VPN network, hosting; null when none is set";

function classSchema(snake: boolean) {
  const C = {
    flag: z.boolean().describe("Whether the class applies"),
    provider: z
      .string()
      .nullable()
      .describe("Who runs it: the VPN provider, the scanner's organisation, the hosting operator"),
    confidence: CONFIDENCE.nullable().describe(D.confidence),
    basis: z.enum(MATCH_BASES).nullable().describe(D.basis),
    detail: z.string().nullable().describe(D.detail),
    list: z.string().nullable().describe(D.list),
    feed: z.string().nullable().describe(D.feed),
    range: z.string().nullable().describe(D.range),
  };
  const date = z.string().nullable().describe(D.snapshotDate);
  const one = snake ? z.object({ ...C, snapshot_date: date }) : z.object({ ...C, snapshotDate: date });
  return z
    .object(
      Object.fromEntries(PRIVACY_CLASSES.map((c) => [c, one])) as Record<(typeof PRIVACY_CLASSES)[number], typeof one>,
    )
    .describe(CLASSES);
}
const WHOLE =
  "Privacy and network classification from dated evidence lists; the same object on /ip/{ip}, /ip/{ip}/reputation and /assess";

export const privacySchema = z
  .object({
    ...flags,
    proxyReason: z.string().describe(D.proxyReason),
    confidence: CONFIDENCE.nullable().describe(PRIVACY_CONFIDENCE),
    classes: classSchema(false),
    matches: z
      .array(
        z.object({
          ...matchCommon,
          snapshotDate: z.string().describe(D.snapshotDate),
          weightFactor: z.number().describe(D.weightFactor),
        }),
      )
      .describe(MATCHES),
  })
  .describe(WHOLE);

export const privacySnakeSchema = z
  .object({
    ...flags,
    proxy_reason: z.string().describe(D.proxyReason),
    confidence: CONFIDENCE.nullable().describe(PRIVACY_CONFIDENCE),
    classes: classSchema(true),
    matches: z
      .array(
        z.object({
          ...matchCommon,
          snapshot_date: z.string().describe(D.snapshotDate),
          weight_factor: z.number().describe(D.weightFactor),
        }),
      )
      .describe(MATCHES),
  })
  .describe(WHOLE);

/**
 * The /assess casing of a privacy object, its keys in the schema's order (the answer is sent as it is built, without
 * the schema's parse rebuilding it: server/api/output-validation.ts).
 */
export function privacySnake(p: Privacy) {
  return {
    tor: p.tor,
    vpn: p.vpn,
    relay: p.relay,
    hosting: p.hosting,
    cdn: p.cdn,
    crawler: p.crawler,
    monitor: p.monitor,
    scanner: p.scanner,
    proxy: p.proxy,
    service: p.service,
    proxy_reason: p.proxyReason,
    confidence: p.confidence,
    classes: {
      tor: classSnake(p.classes.tor),
      vpn: classSnake(p.classes.vpn),
      relay: classSnake(p.classes.relay),
      hosting: classSnake(p.classes.hosting),
      scanner: classSnake(p.classes.scanner),
    },
    matches: p.matches.map((m) => ({
      kind: m.kind,
      provider: m.provider,
      basis: m.basis,
      confidence: m.confidence,
      detail: m.detail,
      list: m.list,
      feed: m.feed,
      range: m.range,
      region: m.region,
      shadowed: m.shadowed,
      snapshot_date: m.snapshotDate,
      weight_factor: m.weightFactor,
    })),
  };
}

function classSnake(c: ClassAnswer) {
  return {
    flag: c.flag,
    provider: c.provider,
    confidence: c.confidence,
    basis: c.basis,
    detail: c.detail,
    list: c.list,
    feed: c.feed,
    range: c.range,
    snapshot_date: c.snapshotDate,
  };
}

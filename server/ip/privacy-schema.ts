// zod contract of the `privacy` object, in the casing of each route: camelCase on /ip/{ip} and /ip/{ip}/reputation,
// snake_case in the `ip` block of /assess. Shared field definitions, so the two stay the same object field by field.
import { z } from "zod";
import type { Privacy } from "./privacy";

const KINDS = ["tor", "vpn", "relay", "crawler", "monitor", "platform", "cdn", "cloud", "hosting_asn"] as const;

const D = {
  kind: "What the list means: tor exit, vpn exit, relay (iCloud Private Relay), verified crawler, uptime monitor, platform egress, cdn edge, cloud ranges, or hosting_asn (the curated hosting-ASN list, used only when no range says who is behind the address)",
  provider: "Who runs the range, e.g. Proton VPN, iCloud Private Relay, Googlebot, Amazon Web Services",
  list: "The published list that holds it, e.g. Googlebot googlebot.json",
  feed: "Name of the feed in `feeds status` and `sources`",
  snapshotDate: "Date of the list in use (YYYY-MM-DD): the shipped snapshot's date or the last refresh",
  range: "The matching range (CIDR; a single address as /32 or /128), or the origin AS (AS16509) for hosting_asn",
  region: "Region where the provider's own file names one (after a refresh); null otherwise",
  weightFactor:
    "1 while the list is within its freshness window (Tor 7 days; VPN, relay, crawlers 30; cloud, CDN, platform, monitors 90), 0.5 past it, 0.25 past twice it",
  shadowed:
    "True when a more specific match says who really sends from the address (Googlebot inside Google Cloud, a relay inside a CDN): reported, but sets no flag",
  proxyReason: "Why `proxy` is null",
};

const flags = {
  tor: z.boolean().describe("A Tor exit relay"),
  vpn: z.boolean().describe("A commercial VPN's exit (Proton VPN)"),
  relay: z.boolean().describe("A privacy relay's egress (iCloud Private Relay): ordinary Safari users, unlike a VPN"),
  hosting: z
    .boolean()
    .describe(
      "A cloud, hosting or platform network (published ranges first, then the curated hosting-ASN list, then the organisation name)",
    ),
  cdn: z.boolean().describe("A CDN or reverse-proxy edge (Cloudflare): the real client is behind it"),
  crawler: z
    .boolean()
    .describe(
      "In a verified crawler's published ranges (Googlebot, Bingbot, DuckDuckBot, DuckAssistBot, OpenAI, PerplexityBot)",
    ),
  monitor: z.boolean().describe("An uptime monitor's probe (Pingdom, StatusCake)"),
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
  list: z.string().describe(D.list),
  feed: z.string().describe(D.feed),
  range: z.string().describe(D.range),
  region: z.string().nullable().describe(D.region),
  shadowed: z.boolean().describe(D.shadowed),
};
const MATCHES = "Every list that holds the address, most specific (narrowest range) first";
const WHOLE =
  "Privacy and network classification from dated evidence lists; the same object on /ip/{ip}, /ip/{ip}/reputation and /assess";

export const privacySchema = z
  .object({
    ...flags,
    proxyReason: z.string().describe(D.proxyReason),
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
 * The /assess casing of a privacy object, its keys in the schema's order (the plain /assess door answers this object
 * as it is, without the schema's parse rebuilding it: server/api/rest/assess-door.ts).
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
    proxy: p.proxy,
    service: p.service,
    proxy_reason: p.proxyReason,
    matches: p.matches.map((m) => ({
      kind: m.kind,
      provider: m.provider,
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

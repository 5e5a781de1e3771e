// The ASN intelligence object behind GET /asn/{asn}: announced prefixes and organisation from the shipped routing
// tables, name, holder, country and dates from the registry's RDAP record, the registry from the IANA bootstrap,
// hosting classification and list memberships. RDAP may fail without failing the answer.
import { AppError } from "../errors";
import { asnIpv4Feed, asnIpv6Feed } from "../feeds/definitions/asn";
import { hostingAsnsFeed } from "../feeds/definitions/hosting-asns";
import { spamhausAsnDropFeed } from "../feeds/definitions/spamhaus";
import { getFeed } from "../feeds/loader";
import { emptyFeedReason, feedSourceRef, type FeedSourceRef } from "../feeds/source";
import { lookupAutnumRdap, type AutnumRdapSummary } from "../providers/rdap/autnum";
import { findRdapServer } from "../providers/rdap/bootstrap";
import { asnPrefixStats, type AsnPrefixStats } from "./prefixes";

export interface AsnIntel {
  asn: number;
  name: string | null;
  organization: string | null;
  country: string | null;
  registry: string | null;
  prefixes: { ipv4: AsnPrefixStats["ipv4"]; ipv6: AsnPrefixStats["ipv6"] } | null;
  prefixesReason: string | null;
  hosting: {
    value: boolean;
    kind: "cloud" | "platform" | "hosting" | "cdn" | null;
    provider: string | null;
    basis: string | null;
  };
  lists: { list: string; name: string; listed: boolean | null; detail: string | null; reason: string | null }[];
  rdap: Omit<AutnumRdapSummary, "asn"> | null;
  rdapReason: string | null;
  sources: FeedSourceRef[];
  checkedAt: string;
}

const HOSTING_WORDS = /\b(hosting|hoster|cloud|server(s)?|datacenter|data cent(er|re)|vps|colo(cation)?|dedicated)\b/i;

export async function getAsnIntelOrThrow(asn: number): Promise<AsnIntel> {
  const [v4, v6, hostingState, asnDrop] = await Promise.all([
    getFeed(asnIpv4Feed),
    getFeed(asnIpv6Feed),
    getFeed(hostingAsnsFeed),
    getFeed(spamhausAsnDropFeed),
  ]);
  const stats = asnPrefixStats(asn);
  const rdap = await lookupAutnumRdap(asn);
  if (!stats && rdap.status === "not_found")
    throw new AppError("NOT_FOUND", `AS${asn} is not announced in the shipped routing data and ${rdap.reason}.`);
  if (!stats && rdap.status === "unavailable")
    throw new AppError(
      "UPSTREAM_UNAVAILABLE",
      `AS${asn} is not in the shipped routing data and its registry could not be asked: ${rdap.reason}.`,
    );

  const record = rdap.status === "ok" ? rdap.data : null;
  const organization = stats?.organization ?? record?.holder ?? null;
  const listedHosting = hostingState.data.get(asn) ?? null;
  const guessed = !listedHosting && organization && HOSTING_WORDS.test(organization);
  const asnDropEmpty = emptyFeedReason(spamhausAsnDropFeed, asnDrop);
  const dropHit = asnDropEmpty ? null : (asnDrop.data.get(asn) ?? null);

  return {
    asn,
    name: record?.name ?? null,
    organization,
    country: record?.country ?? null,
    registry: record?.source.registry ?? findRdapServer({ kind: "asn", asn })?.registry ?? null,
    prefixes: stats ? { ipv4: stats.ipv4, ipv6: stats.ipv6 } : null,
    prefixesReason: stats ? null : "Not announced in the shipped routing data (RouteViews and RIR delegations)",
    hosting: listedHosting
      ? {
          value: true,
          kind: listedHosting.kind,
          provider: listedHosting.provider,
          basis: `Operated by ${listedHosting.provider} (curated hosting-ASN list)`,
        }
      : guessed
        ? {
            value: true,
            kind: "hosting",
            provider: organization,
            basis: `Organisation name "${organization}" suggests a hosting provider (heuristic)`,
          }
        : { value: false, kind: null, provider: null, basis: null },
    lists: [
      {
        list: spamhausAsnDropFeed.name,
        name: "Spamhaus ASN-DROP",
        listed: asnDropEmpty ? null : dropHit !== null,
        detail: dropHit ? `AS${asn}${dropHit.name ? ` ${dropHit.name}` : ""}` : null,
        reason: asnDropEmpty,
      },
    ],
    rdap: record ? (({ asn: _asn, ...rest }) => rest)(record) : null,
    rdapReason: rdap.status === "ok" ? null : rdap.reason,
    sources: [
      feedSourceRef(asnIpv4Feed, v4),
      feedSourceRef(asnIpv6Feed, v6),
      feedSourceRef(hostingAsnsFeed, hostingState),
      feedSourceRef(spamhausAsnDropFeed, asnDrop),
    ],
    checkedAt: new Date().toISOString(),
  };
}

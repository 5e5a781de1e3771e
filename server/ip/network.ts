// What kind of network an address sits in, agreeing with its privacy classification: an anonymiser (Tor, VPN,
// private relay), a named service's egress (verified crawler, uptime monitor), a cloud, hosting or CDN network
// (published ranges first, then the curated hosting-ASN list), an access ISP (a heuristic on the organisation
// name), or unknown.
import { hostingAsnsFeed } from "../feeds/definitions/hosting-asns";
import { getFeed } from "../feeds/loader";
import { feedSourceRef, type FeedSourceRef } from "../feeds/source";
import { classifyPrivacy, getPrivacyIndex, matchOf, RANGE_FEEDS, type Privacy } from "./privacy";

export interface NetworkInfo {
  type: "anonymizer" | "service" | "hosting" | "residential" | "unknown";
  /** tor, vpn or relay for an anonymizer; crawler or monitor for a service; cloud, hosting or cdn for hosting. */
  kind: "tor" | "vpn" | "relay" | "crawler" | "monitor" | "cloud" | "hosting" | "cdn" | null;
  provider: string | null;
  cloud: { provider: string; region: string | null; service: string | null } | null;
  confidence: "high" | "medium" | "low" | null;
  /** The evidence, in words. */
  basis: string[];
}

const HOSTING_WORDS = /\b(hosting|hoster|cloud|server(s)?|datacenter|data cent(er|re)|vps|colo(cation)?|dedicated)\b/i;
const ACCESS_ISP_WORDS =
  /\b(telecom(munication)?s?|telekom|broadband|cable|mobile|wireless|cellular|telefonica|telefônica|telecel|dsl|fibra?|fiber|fibre)\b/i;

export async function classifyNetwork(
  address: string,
  asn: { asn: number; organization: string | null } | null,
): Promise<{ info: NetworkInfo; privacy: Privacy; sources: FeedSourceRef[] }> {
  const hostingState = await getFeed(hostingAsnsFeed);
  const hostingAsn = asn ? (hostingState.data.get(asn.asn) ?? null) : null;
  const privacy = classifyPrivacy(
    address,
    hostingAsn ? { ...hostingAsn, snapshotDate: hostingState.fetchedAt } : null,
    getPrivacyIndex(),
  );
  const sources: FeedSourceRef[] = [feedSourceRef(hostingAsnsFeed, hostingState)];
  const used = new Set(privacy.matches.map((m) => m.feed));
  for (const def of RANGE_FEEDS) if (used.has(def.name)) sources.push(feedSourceRef(def, await getFeed(def)));

  const basis = privacy.matches.map(
    (m) =>
      `${m.shadowed ? "Also in" : "In"} ${m.provider}'s ${m.kind === "hosting_asn" ? "network" : "published ranges"} (${m.range}, ${m.list}, ${m.snapshotDate})${m.shadowed ? ": the narrower match says who sends from it" : ""}`,
  );
  const info = (
    type: NetworkInfo["type"],
    kind: NetworkInfo["kind"],
    provider: string | null,
    confidence: NetworkInfo["confidence"],
  ): NetworkInfo => {
    const c = matchOf(privacy, "cloud") ?? matchOf(privacy, "cdn") ?? matchOf(privacy, "platform");
    return {
      type,
      kind,
      provider,
      cloud: c ? { provider: c.provider, region: c.region, service: null } : null,
      confidence,
      basis,
    };
  };
  const p = privacy;
  if (p.tor || p.vpn || p.relay) {
    const kind = p.tor ? "tor" : p.vpn ? "vpn" : "relay";
    return { info: info("anonymizer", kind, matchOf(p, kind)!.provider, "high"), privacy, sources };
  }
  if (p.crawler || p.monitor) {
    const kind = p.crawler ? "crawler" : "monitor";
    return { info: info("service", kind, matchOf(p, kind)!.provider, "high"), privacy, sources };
  }
  if (p.hosting || p.cdn) {
    const asnMatch = matchOf(p, "hosting_asn");
    const kind = p.cdn
      ? "cdn"
      : asnMatch && !matchOf(p, "cloud") && !matchOf(p, "platform")
        ? hostingAsn!.kind
        : "cloud";
    return { info: info("hosting", kind, p.service, "high"), privacy, sources };
  }
  const org = asn?.organization ?? "";
  if (org && HOSTING_WORDS.test(org)) {
    basis.push(`Organisation name "${org}" suggests a hosting provider (heuristic)`);
    privacy.hosting = true;
    privacy.service ??= org;
    return { info: info("hosting", "hosting", org, "medium"), privacy, sources };
  }
  if (org && ACCESS_ISP_WORDS.test(org)) {
    basis.push(`Organisation name "${org}" suggests an access ISP (heuristic)`);
    return { info: info("residential", null, org, "low"), privacy, sources };
  }
  basis.push(
    asn ? "Neither a known hosting network nor recognisably an access ISP" : "No origin AS known for this address",
  );
  return { info: info("unknown", null, null, null), privacy, sources };
}

// What kind of network an address sits in: a cloud, hosting or CDN provider (from published ranges and the
// curated hosting-ASN list), an access ISP (a heuristic on the organisation name), or unknown.
import { CLOUD_FEEDS, type CloudRange } from "../feeds/definitions/cloud";
import { hostingAsnsFeed } from "../feeds/definitions/hosting-asns";
import { getFeed } from "../feeds/loader";
import { feedSourceRef, type FeedSourceRef } from "../feeds/source";

export interface NetworkInfo {
  type: "hosting" | "residential" | "unknown";
  /** cloud, hosting or cdn when type is hosting. */
  kind: "cloud" | "hosting" | "cdn" | null;
  provider: string | null;
  cloud: { provider: string; region: string | null; service: string | null } | null;
  confidence: "high" | "medium" | "low" | null;
  /** The evidence, in words. */
  basis: string[];
}

const HOSTING_WORDS = /\b(hosting|hoster|cloud|server(s)?|datacenter|data cent(er|re)|vps|colo(cation)?|dedicated)\b/i;
const ACCESS_ISP_WORDS = /\b(telecom(munication)?s?|telekom|broadband|cable|mobile|wireless|cellular|telefonica|telefônica|telecel|dsl|fibra?|fiber|fibre)\b/i;

export async function classifyNetwork(address: string, asn: { asn: number; organization: string | null } | null): Promise<{ info: NetworkInfo; sources: FeedSourceRef[] }> {
  const sources: FeedSourceRef[] = [];
  let cloud: CloudRange | null = null;
  for (const def of CLOUD_FEEDS) {
    const state = await getFeed(def);
    if (state.count === 0) continue;
    sources.push(feedSourceRef(def, state));
    cloud ??= state.data.lookup(address);
  }
  const hostingState = await getFeed(hostingAsnsFeed);
  sources.push(feedSourceRef(hostingAsnsFeed, hostingState));
  const hostingAsn = asn ? hostingState.data.get(asn.asn) ?? null : null;
  const basis: string[] = [];

  if (cloud) {
    basis.push(`In ${cloud.provider}'s published ranges${cloud.region ? ` (${cloud.region}${cloud.service ? `, ${cloud.service}` : ""})` : ""}`);
  }
  if (hostingAsn) basis.push(`AS${hostingAsn.asn} is operated by ${hostingAsn.provider} (${hostingAsn.kind})`);
  if (cloud || hostingAsn) {
    const kind = cloud?.provider === "Cloudflare" ? "cdn" : hostingAsn?.kind ?? "cloud";
    return {
      info: { type: "hosting", kind, provider: cloud?.provider ?? hostingAsn!.provider, cloud: cloud ? { ...cloud } : null, confidence: "high", basis },
      sources,
    };
  }
  const org = asn?.organization ?? "";
  if (org && HOSTING_WORDS.test(org)) {
    basis.push(`Organisation name "${org}" suggests a hosting provider (heuristic)`);
    return { info: { type: "hosting", kind: "hosting", provider: org, cloud: null, confidence: "medium", basis }, sources };
  }
  if (org && ACCESS_ISP_WORDS.test(org)) {
    basis.push(`Organisation name "${org}" suggests an access ISP (heuristic)`);
    return { info: { type: "residential", kind: null, provider: org, cloud: null, confidence: "low", basis }, sources };
  }
  basis.push(asn ? "Neither a known hosting network nor recognisably an access ISP" : "No origin AS known for this address");
  return { info: { type: "unknown", kind: null, provider: null, cloud: null, confidence: null, basis }, sources };
}

// What kind of network an address sits in, agreeing with its privacy classification: an anonymiser (Tor, a VPN
// provider's exit, private relay), a named service's egress (internet scanner, verified crawler, uptime monitor), a
// VPN operator's network (medium confidence), a cloud, hosting or CDN network (published ranges, X4BNet's datacenter
// ranges and hosting ASNs, the curated hosting-ASN list), an access ISP (a heuristic on the organisation name), or
// unknown.
import { hostingAsnsFeed } from "../feeds/definitions/hosting-asns";
import { getFeed } from "../feeds/loader";
import { feedSourceRef, type FeedSourceRef } from "../feeds/source";
import { X4B_ASN_FEEDS } from "../feeds/definitions/privacy-lists";
import { scannersFeed } from "../feeds/definitions/scanners";
import type { FeedDefinition } from "../feeds/types";
import { classifyPrivacy, getPrivacyIndex, matchOf, RANGE_FEEDS, type Privacy } from "./privacy";

/** The feeds a privacy match can name (its `feed`), for the answer's `sources`. */
const PRIVACY_FEEDS: readonly FeedDefinition<unknown>[] = [
  ...RANGE_FEEDS,
  scannersFeed,
  ...X4B_ASN_FEEDS,
] as FeedDefinition<unknown>[];

export interface NetworkInfo {
  type: "anonymizer" | "service" | "hosting" | "residential" | "unknown";
  /**
   * tor, vpn or relay for an anonymizer; scanner, crawler or monitor for a service; cloud, platform, hosting or cdn for
   * hosting (platform: a platform's own published range, Google's or Meta's, its own services' egress, not a cloud).
   */
  kind: "tor" | "vpn" | "relay" | "scanner" | "crawler" | "monitor" | "cloud" | "platform" | "hosting" | "cdn" | null;
  provider: string | null;
  /** The cloud or CDN whose published range holds the address (a platform's own range is no cloud). */
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
    asn,
  );
  const sources: FeedSourceRef[] = [feedSourceRef(hostingAsnsFeed, hostingState)];
  const used = new Set(privacy.matches.map((m) => m.feed));
  for (const def of PRIVACY_FEEDS) if (used.has(def.name)) sources.push(feedSourceRef(def, await getFeed(def)));

  const basis = privacy.matches.map((m) => m.detail);
  const info = (
    type: NetworkInfo["type"],
    kind: NetworkInfo["kind"],
    provider: string | null,
    confidence: NetworkInfo["confidence"],
    cloudAs: string | null = null,
  ): NetworkInfo => {
    const c = matchOf(privacy, "cloud") ?? matchOf(privacy, "cdn");
    return {
      type,
      kind,
      provider,
      cloud: c
        ? { provider: c.provider, region: c.region, service: null }
        : cloudAs
          ? { provider: cloudAs, region: null, service: null }
          : null,
      confidence,
      basis,
    };
  };
  const p = privacy;
  const c = p.classes;
  // A provider's own exit list (or Tor's, Apple's) names the anonymiser; a scanner's list names automated traffic
  // more surely than a network derived from ASNs says VPN.
  if (c.tor.flag || (c.vpn.flag && c.vpn.confidence === "high") || c.relay.flag) {
    const kind = c.tor.flag ? "tor" : c.vpn.flag && c.vpn.confidence === "high" ? "vpn" : "relay";
    return { info: info("anonymizer", kind, matchOf(p, kind)!.provider, "high"), privacy, sources };
  }
  if (p.scanner || p.crawler || p.monitor) {
    const kind = p.scanner ? "scanner" : p.crawler ? "crawler" : "monitor";
    return { info: info("service", kind, matchOf(p, kind)!.provider, "high"), privacy, sources };
  }
  if (c.vpn.flag) return { info: info("anonymizer", "vpn", c.vpn.provider, c.vpn.confidence), privacy, sources };
  if (p.hosting || p.cdn) {
    const asnMatch = matchOf(p, "hosting_asn");
    // A cloud's published range (anyone can rent a machine there) says more than a platform's own range around or
    // inside it (GitHub Actions runners in Azure's ranges are Azure's cloud). So does a cloud's own AS announcing a
    // platform's range: Google's shipped goog.json holds Google Cloud's customer ranges beside Search and Public DNS,
    // and only the announcing AS (AS396982 Google Cloud, AS15169 Google) tells them apart until a refresh reads
    // cloud.json.
    const cloudRange = matchOf(p, "cloud");
    const platform = cloudRange ? null : matchOf(p, "platform");
    const cloudAs = platform && hostingAsn?.kind === "cloud" ? hostingAsn.provider : null;
    const own = cloudRange ?? platform;
    const kind = p.cdn ? "cdn" : cloudAs ? "cloud" : own ? own.kind : asnMatch ? hostingAsn!.kind : "hosting";
    const provider = p.cdn ? p.service : (cloudAs ?? own?.provider ?? c.hosting.provider ?? p.service);
    const confidence = p.cdn || own ? "high" : c.hosting.confidence;
    return {
      info: info("hosting", kind as NetworkInfo["kind"], provider, confidence, p.cdn ? null : cloudAs),
      privacy,
      sources,
    };
  }
  const org = asn?.organization ?? "";
  if (org && HOSTING_WORDS.test(org)) {
    const why = `Organisation name "${org}" suggests a hosting provider (heuristic)`;
    basis.push(why);
    privacy.hosting = true;
    privacy.service ??= org;
    privacy.classes.hosting = {
      ...privacy.classes.hosting,
      flag: true,
      provider: org,
      confidence: "medium",
      detail: why,
    };
    privacy.confidence ??= "medium";
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

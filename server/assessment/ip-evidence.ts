// What the request's IP says: Tor, VPN exits and VPN networks (kept apart by confidence), private-relay exits,
// internet scanners, hosting networks (named, "VPN-capable" where the network carries VPN exits) and CDN edges,
// verified or spoofed
// crawlers (the user agent against the crawler's own ranges), reputation lists, non-public addresses, and the
// geolocated country against the billing country. All offline: shipped or refreshed feeds and the embedded
// geolocation database. Weights come from the one table (./score.ts), scaled down when the list is old.
import { lookupGeo } from "../geo/lookup";
import { listAge, matchOf, type PrivacyMatch } from "../ip/privacy";
import { privacySnake } from "../ip/privacy-schema";
import { getIpReputation } from "../ip/reputation";
import { hostingPoints, hostingSignal } from "../ip/score";
import type { AssessRequest, AssessResult, Signal, SourceRef } from "./schemas";
import { signalWeight, type WeightedSignalCode } from "../scoring/score";
import { claimedCrawler } from "./user-agent";

/** The match kinds that make an address hosting (a cloud, CDN, platform or hosting range, or a hosting ASN). */
const HOSTING_KINDS = new Set<string>(["cloud", "cdn", "platform", "hosting", "hosting_asn"]);

export interface IpEvidence {
  ip: AssessResult["ip"];
  signals: Signal[];
  sources: SourceRef[];
  /** Feeds and blocklists that hold the address (the `ip.lists` rule fact). */
  lists: string[];
  /** The geolocation database's coordinates and country name, for the account's travel (./account.ts). */
  location: { latitude: number; longitude: number; countryName: string | null } | null;
  /** A VPN, Tor, relay or hosting address: where the user really is is unknown. */
  hidesLocation: boolean;
}

export async function gatherIpEvidence(req: AssessRequest): Promise<IpEvidence> {
  const rep = await getIpReputation(req.ip);
  const geo = lookupGeo(rep.ip);
  const p = rep.privacy;
  const signals: Signal[] = [];
  const sources: SourceRef[] = rep.sources.map((s) => ({ name: s.name, origin: s.origin, fetched_at: s.fetchedAt }));
  sources.push({ name: geo.source.name, origin: "embedded", fetched_at: toIso(geo.source.databaseDate) });
  // A listed exit's or scanner's weight is its list's, aged; the hosting network it is on is a signal of its own.
  const from = (code: WeightedSignalCode, m: PrivacyMatch, reason: string) =>
    signals.push({ code, weight: signalWeight(code, req.event, m.weightFactor), reason, evidence: [m.feed] });

  const tor = matchOf(p, "tor");
  if (tor)
    from(
      "ip_tor_exit",
      tor,
      tor.weightFactor === 1
        ? `${rep.ip} is listed as a Tor exit ${listAge(tor)}: the user's real network and location are hidden. Ask for stronger verification before trusting this request.`
        : `${rep.ip} is listed as a Tor exit ${listAge(tor)}. If it still is one, the user's real network and location are hidden.`,
    );
  const vpn = p.classes.vpn;
  const vpnMatch = vpn.flag ? (p.matches.find((m) => m.feed === vpn.feed && m.range === vpn.range) ?? null) : null;
  if (vpnMatch) {
    if (vpn.confidence === "high")
      from(
        "ip_vpn",
        vpnMatch,
        `${rep.ip} is a ${vpn.provider} exit (${vpn.range}; ${vpn.list}, the provider's own list: high confidence) ${listAge(vpnMatch)}: a commercial VPN hides where the user is.`,
      );
    else
      from(
        "ip_vpn_network",
        vpnMatch,
        `${rep.ip} is in a VPN operator's network (${vpn.provider}; ${vpn.range}, ${vpn.list}) ${listAge(vpnMatch)}: the network carries VPN exits, so the user may be hiding where they are (${vpn.confidence === "low" ? "low confidence: the VPN ASN list itself is unsure this network carries VPN exits" : `${vpn.confidence} confidence: the list is derived from the operator's ASN, not its own exit list`}).`,
      );
  }
  const scanner = matchOf(p, "scanner");
  if (scanner)
    from(
      "ip_scanner",
      scanner,
      `${rep.ip} is an internet-wide scanner run by ${scanner.provider} (${scanner.range}, ${scanner.list}) ${listAge(scanner)}: automated research or reconnaissance traffic, never a customer. To turn every scanner away whatever the score, add a rule on ip.scanner.`,
    );
  const relay = matchOf(p, "relay");
  if (relay)
    from(
      "ip_private_relay",
      relay,
      `${rep.ip} is an ${relay.provider} egress (${relay.range}) ${listAge(relay)}: ordinary Safari users with iCloud+ browse this way, unlike a VPN; the location is coarsened.`,
    );

  const claim = claimedCrawler(req.user_agent);
  if (claim) {
    const own = p.matches.find((m) => m.feed === claim.feed);
    if (own) {
      from(
        "ip_verified_crawler",
        own,
        `Verified ${claim.name}: the User-Agent claims it and ${rep.ip} is in its published ranges (${own.range}) ${listAge(own)}. Expected traffic for forms and APIs it indexes.`,
      );
    } else {
      signals.push({
        code: "ua_spoofed_crawler",
        weight: signalWeight("ua_spoofed_crawler", req.event),
        reason: `The User-Agent claims to be ${claim.name}, but ${rep.ip} is outside ${claim.name}'s published ranges: a spoofed crawler, a common disguise of scrapers and bots.`,
        evidence: ["request", claim.feed],
      });
    }
  }

  for (const l of rep.lists) {
    if (l.list === "tor-exits" || !l.listed) continue;
    signals.push({
      code: l.matchedOn === "asn" ? "asn_blocklisted" : "ip_blocklisted",
      weight: signalWeight(l.matchedOn === "asn" ? "asn_blocklisted" : "ip_blocklisted", req.event),
      reason: `${l.matchedOn === "asn" ? `The network (${l.detail})` : rep.ip} is on ${l.name}${l.detail && l.matchedOn === "ip" ? ` (${l.detail})` : ""}: traffic from hijacked or criminal networks; trust it only if you know the user.`,
      evidence: [l.list],
    });
  }
  const hostingEvidence = hostingSignal(p);
  if (hostingEvidence) {
    // Server-to-server API events come from data centers by nature; for people it points at bots, proxies or VPNs.
    const h = p.classes.hosting;
    const { code, match: m } = hostingEvidence;
    // A cloud the network names by its AS (a Google Cloud address in Google's goog.json: server/ip/network.ts) is
    // named as the network says.
    const asCloud = rep.network.kind === "cloud" && m?.kind === "platform";
    const operator = p.cdn
      ? (p.service ?? rep.network.provider)
      : asCloud
        ? rep.network.provider
        : (h.provider ?? p.service ?? rep.network.provider);
    // The hosting evidence alone: the Tor, VPN or relay lists the address is also in have signals of their own.
    const hostingBasis = p.matches.filter((x) => HOSTING_KINDS.has(x.kind)).map((x) => x.detail);
    const capable =
      !p.cdn && m?.detail.includes("VPN-capable")
        ? " The network is VPN-capable hosting: it also carries VPN exits."
        : "";
    const age = m && !m.range.startsWith("AS") ? listAge(m) : null;
    const basis = (hostingBasis.length ? hostingBasis : rep.network.basis).join("; ");
    signals.push({
      code,
      weight: hostingPoints(p, req.event),
      // A CDN edge is not where a person browses from but what stands in front of one: as /ip says, the real client is
      // behind it, and most often the integrator sent its own CDN's address.
      reason: p.cdn
        ? `${rep.ip} is a CDN or reverse-proxy edge of ${operator ?? "a CDN"}${age ? ` (${age})` : ""}: the real client is hidden behind it. If your site is behind this CDN, send the client's own address (from the CDN's client-address header), not the edge's. ${basis}.`
        : `${rep.ip} belongs to ${operator ?? "a hosting provider"} (${m?.kind === "platform" && !asCloud ? "platform" : rep.network.kind === "cloud" ? "cloud" : "hosting"} network${age ? `, ${age}` : ""}${h.confidence ? `, ${h.confidence} confidence` : ""}): people rarely browse from data centers, bots, proxies and VPNs do.${capable} ${basis}.`,
      evidence: m ? [m.feed] : ["asn-ipv4"],
    });
  }
  if (rep.classification.bogon) {
    signals.push({
      code: "ip_not_public",
      weight: signalWeight("ip_not_public", req.event),
      reason: `${rep.ip} is not a public address (${rep.classification.reason ?? rep.classification.scope}): no real user arrives from it. Send the client's address, not your proxy's or load balancer's.`,
      evidence: ["iana-special-purpose-registries"],
    });
  }
  const country = geo.country?.code ?? null;
  if (req.billing_country && country && req.billing_country !== country) {
    signals.push({
      code: "geo_mismatch",
      weight: signalWeight("geo_mismatch", req.event),
      reason: `The billing country ${req.billing_country} differs from the IP's country ${country}${geo.country?.name ? ` (${geo.country.name})` : ""}: common in card fraud, also in travel. Verify the payment method.`,
      evidence: [geo.source.name],
    });
  }
  return {
    ip: {
      address: rep.ip,
      scope: rep.classification.scope,
      country,
      asn: rep.asn?.number ?? null,
      network_type: rep.network.type,
      tor_exit: rep.anonymizers.torExit.value,
      hosting: p.hosting || p.cdn,
      privacy: privacySnake(p),
    },
    signals,
    sources,
    lists: [
      ...new Set([...p.matches.map((m) => m.feed), ...rep.lists.filter((l) => l.listed).map((l) => l.list)]),
    ].sort(),
    location:
      geo.latitude !== null && geo.longitude !== null
        ? { latitude: geo.latitude, longitude: geo.longitude, countryName: geo.country?.name ?? null }
        : null,
    hidesLocation: Boolean(rep.anonymizers.torExit.value || p.vpn || p.relay || p.hosting || p.cdn),
  };
}

function toIso(date: string): string | null {
  const t = Date.parse(date);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

// What the request's IP says: anonymisers, hosting networks, reputation lists, non-public addresses, and the
// geolocated country against the billing country. All offline: shipped or refreshed feeds and the embedded
// geolocation database.
import { lookupGeo } from "../geo/lookup";
import { getIpReputation } from "../ip/reputation";
import type { AssessRequest, AssessResult, Signal, SourceRef } from "./schemas";

export interface IpEvidence {
  ip: AssessResult["ip"];
  signals: Signal[];
  sources: SourceRef[];
}

export async function gatherIpEvidence(req: AssessRequest): Promise<IpEvidence> {
  const rep = await getIpReputation(req.ip);
  const geo = lookupGeo(rep.ip);
  const signals: Signal[] = [];
  const sources: SourceRef[] = rep.sources.map((s) => ({ name: s.name, origin: s.origin, fetched_at: s.fetchedAt }));
  sources.push({ name: geo.source.name, origin: "embedded", fetched_at: toIso(geo.source.databaseDate) });
  const networkSources = rep.sources.filter((s) => s.name.startsWith("cloud-") || s.name === "hosting-asns" || s.name.startsWith("asn-")).map((s) => s.name);

  const tor = rep.anonymizers.torExit.value;
  if (tor) {
    signals.push({ code: "ip_tor_exit", weight: 45, reason: `${rep.ip} is a Tor exit relay: the user's real network and location are hidden. Ask for stronger verification before trusting this request.`, evidence: ["tor-exits"] });
  }
  for (const l of rep.lists) {
    if (l.list === "tor-exits" || !l.listed) continue;
    signals.push({
      code: l.matchedOn === "asn" ? "asn_blocklisted" : "ip_blocklisted",
      weight: 50,
      reason: `${l.matchedOn === "asn" ? `The network (${l.detail})` : rep.ip} is on ${l.name}${l.detail && l.matchedOn === "ip" ? ` (${l.detail})` : ""}: traffic from hijacked or criminal networks. Block unless you know the user.`,
      evidence: [l.list],
    });
  }
  const hosting = rep.network.type === "hosting";
  if (hosting) {
    // Server-to-server API events come from data centers by nature; for people it points at bots, proxies or VPNs.
    const weight = req.event === "api" ? 5 : rep.network.kind === "cdn" ? 10 : 20;
    signals.push({
      code: "ip_hosting",
      weight,
      reason: `${rep.ip} belongs to ${rep.network.provider ?? "a hosting provider"} (${rep.network.kind ?? "hosting"} network): people rarely browse from data centers, bots, proxies and VPNs do. ${rep.network.basis.join("; ")}.`,
      evidence: networkSources,
    });
  }
  if (rep.classification.bogon) {
    signals.push({
      code: "ip_not_public",
      weight: 20,
      reason: `${rep.ip} is not a public address (${rep.classification.reason ?? rep.classification.scope}): no real user arrives from it. Send the client's address, not your proxy's or load balancer's.`,
      evidence: ["iana-special-purpose-registries"],
    });
  }
  const country = geo.country?.code ?? null;
  if (req.billing_country && country && req.billing_country !== country) {
    signals.push({
      code: "geo_mismatch",
      weight: 20,
      reason: `The billing country ${req.billing_country} differs from the IP's country ${country}${geo.country?.name ? ` (${geo.country.name})` : ""}: common in card fraud, also in travel. Verify the payment method.`,
      evidence: [geo.source.name],
    });
  }
  return {
    ip: { address: rep.ip, scope: rep.classification.scope, country, asn: rep.asn?.number ?? null, network_type: rep.network.type, tor_exit: tor, hosting },
    signals,
    sources,
  };
}

function toIso(date: string): string | null {
  const t = Date.parse(date);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

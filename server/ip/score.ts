// The 0-100 risk score of an address and the reasons that moved it (a VPN exit or network, a scanner, hosting with
// its operator, each with the list, basis and date that matched). Weights are additive and capped; each reason
// names its evidence, so a person can see why the score is what it is. Network and privacy weights come from the
// one signal weight table (server/scoring/score.ts), scaled down when the list that matched is old.
import { signalWeight } from "../scoring/score";
import type { IpClassification } from "../net/ip";
import type { ListMembership } from "./feed-lists";
import type { NetworkInfo } from "./network";
import { listAge, matchOf, type Privacy, type PrivacyMatch } from "./privacy";

export interface RiskReason {
  code: string;
  points: number;
  reason: string;
}

export interface RiskScore {
  score: number;
  level: "low" | "medium" | "high" | "critical";
  reasons: RiskReason[];
}

/** Weights of the facts only the /ip answer scores (list memberships and routing). */
export const RISK_WEIGHTS = {
  spamhaus_drop: 60,
  spamhaus_asndrop: 50,
  bogon: 25,
  unrouted: 10,
} as const;

export function riskLevel(score: number): RiskScore["level"] {
  return score >= 75 ? "critical" : score >= 50 ? "high" : score >= 25 ? "medium" : "low";
}

type EventName = Parameters<typeof signalWeight>[1];

/**
 * The hosting or CDN evidence an address is scored by (`ip_cdn_edge` for a CDN edge, else `ip_hosting`) and the match
 * that decides it (null for the organisation-name heuristic), or null when it is neither. One rule for /ip and /assess.
 */
export function hostingSignal(p: Privacy): { code: "ip_hosting" | "ip_cdn_edge"; match: PrivacyMatch | null } | null {
  if (p.cdn) return { code: "ip_cdn_edge", match: matchOf(p, "cdn") ?? matchOf(p, "hosting_asn") };
  if (!p.hosting) return null;
  const h = p.classes.hosting;
  return { code: "ip_hosting", match: p.matches.find((x) => x.feed === h.feed && x.range === h.range) ?? null };
}

/** The points of the hosting or CDN evidence for an event, at its list's age (0 when there is none). */
export function hostingPoints(p: Privacy, event?: EventName): number {
  const h = hostingSignal(p);
  return h ? signalWeight(h.code, event, h.match?.weightFactor ?? 1) : 0;
}

export function scoreIp(input: {
  classification: IpClassification;
  asn: number | null;
  network: NetworkInfo;
  privacy: Privacy;
  lists: ListMembership[];
}): RiskScore {
  const reasons: RiskReason[] = [];
  const add = (code: keyof typeof RISK_WEIGHTS, reason: string) =>
    reasons.push({ code, points: RISK_WEIGHTS[code], reason });
  const { classification: c, privacy: p } = input;

  if (c.scope !== "public") {
    add(
      "bogon",
      `Not routable on the public internet (${c.reason ?? c.scope}); as a client address it points to spoofing or a proxy misconfiguration`,
    );
  } else if (input.asn === null) {
    add("unrouted", "No origin AS announces this address in the shipped routing data");
  }
  for (const l of input.lists) {
    if (l.listed !== true || l.list === "tor-exits") continue;
    if (l.list === "spamhaus-asndrop") add("spamhaus_asndrop", `Origin AS is on Spamhaus ASN-DROP (${l.detail})`);
    else add("spamhaus_drop", `Inside a netblock on ${l.name} (${l.detail}): hijacked or run by cybercriminals`);
  }
  const tor = matchOf(p, "tor");
  if (tor)
    reasons.push({
      code: "tor_exit",
      points: signalWeight("ip_tor_exit", undefined, tor.weightFactor),
      reason: `Listed as a Tor exit ${listAge(tor)}: traffic is anonymised`,
    });
  const vpn = p.classes.vpn;
  const vpnMatch = vpn.flag ? p.matches.find((m) => m.feed === vpn.feed && m.range === vpn.range)! : null;
  if (vpnMatch)
    reasons.push(
      vpn.confidence === "high"
        ? {
            code: "vpn_exit",
            points: signalWeight("ip_vpn", undefined, vpnMatch.weightFactor),
            reason: `${vpn.provider} exit (${vpn.range}, ${vpn.list}) ${listAge(vpnMatch)}: a commercial VPN hides the user's network and location (high confidence: the provider's own list)`,
          }
        : {
            code: "vpn_network",
            points: signalWeight("ip_vpn_network", undefined, vpnMatch.weightFactor),
            reason: `In a VPN operator's network (${vpn.provider}; ${vpn.range}, ${vpn.list}) ${listAge(vpnMatch)}: it carries VPN exits, so the user's network and location may be hidden (${vpn.confidence} confidence)`,
          },
    );
  const scanner = matchOf(p, "scanner");
  if (scanner)
    reasons.push({
      code: "scanner",
      points: signalWeight("ip_scanner", undefined, scanner.weightFactor),
      reason: `An internet-wide scanner run by ${scanner.provider} (${scanner.range}, ${scanner.list}) ${listAge(scanner)}: automated traffic, not a customer`,
    });
  const relay = matchOf(p, "relay");
  if (relay)
    reasons.push({
      code: "private_relay",
      points: signalWeight("ip_private_relay", undefined, relay.weightFactor),
      reason: `${relay.provider} egress (${relay.range}) ${listAge(relay)}: ordinary Safari users with iCloud+, location coarsened`,
    });
  const crawler = matchOf(p, "crawler");
  if (crawler)
    reasons.push({
      code: "verified_crawler_range",
      points: 0,
      reason: `In ${crawler.provider}'s published ranges (${crawler.range}) ${listAge(crawler)}: a request from here claiming to be ${crawler.provider} is genuine`,
    });
  const hostingEvidence = hostingSignal(p);
  if (hostingEvidence?.code === "ip_cdn_edge") {
    const m = hostingEvidence.match;
    reasons.push({
      code: "cdn_edge",
      points: hostingPoints(p),
      reason:
        `CDN or reverse-proxy edge (${input.network.provider ?? m?.provider}) ${m ? listAge(m) : ""}: the real client is hidden behind it`.replace(
          " :",
          ":",
        ),
    });
  } else if (hostingEvidence) {
    const h = p.classes.hosting;
    const m = hostingEvidence.match;
    const where = m
      ? m.range.startsWith("AS")
        ? `origin ${m.range} belongs to ${m.provider} (${m.list}, ${m.confidence} confidence)`
        : `${m.range} ${listAge(m)}, ${m.list}`
      : "organisation name";
    const capable = m?.detail.includes("VPN-capable")
      ? "; VPN-capable hosting: the network also carries VPN exits"
      : "";
    reasons.push({
      code: "hosting",
      points: hostingPoints(p),
      reason: `Hosting or datacenter network (${h.provider ?? p.service ?? input.network.provider}; ${where}${capable}): rarely a person's own connection`,
    });
  }
  const score = Math.min(
    100,
    Math.max(
      0,
      reasons.reduce((s, r) => s + r.points, 0),
    ),
  );
  return { score, level: riskLevel(score), reasons };
}

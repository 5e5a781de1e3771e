// The 0-100 risk score of an address and the reasons that moved it. Weights are additive and capped; each reason
// names its evidence, so a person can see why the score is what it is. Network and privacy weights come from the
// one signal weight table (server/scoring/score.ts), scaled down when the list that matched is old.
import { signalWeight } from "../scoring/score";
import type { IpClassification } from "../net/ip";
import type { ListMembership } from "./lists";
import type { NetworkInfo } from "./network";
import { matchOf, type Privacy, type PrivacyMatch } from "./privacy";

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

/** "in the 2024-08-20 list, older than the 7-day freshness window: counted at a quarter" (or nothing when fresh). */
export function ageNote(m: PrivacyMatch): string {
  if (m.weightFactor === 1) return `in the ${m.snapshotDate} list`;
  return `in the ${m.snapshotDate} list (older than the list's freshness window: counted at ${m.weightFactor === 0.5 ? "half" : "a quarter"} weight)`;
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
      reason: `Listed as a Tor exit ${ageNote(tor)}: traffic is anonymised`,
    });
  const vpn = matchOf(p, "vpn");
  if (vpn)
    reasons.push({
      code: "vpn_exit",
      points: signalWeight("ip_vpn", undefined, vpn.weightFactor),
      reason: `${vpn.provider} exit (${vpn.range}) ${ageNote(vpn)}: a commercial VPN hides the user's network and location`,
    });
  const relay = matchOf(p, "relay");
  if (relay)
    reasons.push({
      code: "private_relay",
      points: signalWeight("ip_private_relay", undefined, relay.weightFactor),
      reason: `${relay.provider} egress (${relay.range}) ${ageNote(relay)}: ordinary Safari users with iCloud+, location coarsened`,
    });
  const crawler = matchOf(p, "crawler");
  if (crawler)
    reasons.push({
      code: "verified_crawler_range",
      points: 0,
      reason: `In ${crawler.provider}'s published ranges (${crawler.range}) ${ageNote(crawler)}: a request from here claiming to be ${crawler.provider} is genuine`,
    });
  if (p.cdn) {
    const m = matchOf(p, "cdn") ?? matchOf(p, "hosting_asn");
    reasons.push({
      code: "cdn_edge",
      points: signalWeight("ip_cdn_edge", undefined, m?.weightFactor ?? 1),
      reason:
        `CDN or reverse-proxy edge (${input.network.provider ?? m?.provider}) ${m ? ageNote(m) : ""}: the real client is hidden behind it`.replace(
          " :",
          ":",
        ),
    });
  } else if (p.hosting) {
    const m = matchOf(p, "cloud") ?? matchOf(p, "platform") ?? matchOf(p, "hosting_asn");
    const where = m
      ? m.kind === "hosting_asn"
        ? `origin ${m.range} is ${m.provider}'s`
        : `${m.range} ${ageNote(m)}`
      : "organisation name";
    reasons.push({
      code: "hosting",
      points: signalWeight("ip_hosting", undefined, m?.weightFactor ?? 1),
      reason: `Hosting or datacenter network (${p.service ?? input.network.provider}; ${where}): rarely a person's own connection`,
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

// The 0-100 risk score of an address and the reasons that moved it. Weights are additive and capped; each reason
// names its evidence, so a person can see why the score is what it is.
import type { IpClassification } from "../net/ip";
import type { ListMembership } from "./lists";
import type { NetworkInfo } from "./network";

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

export const RISK_WEIGHTS = {
  spamhaus_drop: 60,
  spamhaus_asndrop: 50,
  tor_exit: 40,
  bogon: 25,
  hosting: 15,
  cdn_edge: 10,
  unrouted: 10,
} as const;

export function riskLevel(score: number): RiskScore["level"] {
  return score >= 75 ? "critical" : score >= 50 ? "high" : score >= 25 ? "medium" : "low";
}

export function scoreIp(input: { classification: IpClassification; asn: number | null; network: NetworkInfo; lists: ListMembership[] }): RiskScore {
  const reasons: RiskReason[] = [];
  const add = (code: keyof typeof RISK_WEIGHTS, reason: string) => reasons.push({ code, points: RISK_WEIGHTS[code], reason });
  const { classification: c } = input;

  if (c.scope !== "public") {
    add("bogon", `Not routable on the public internet (${c.reason ?? c.scope}); as a client address it points to spoofing or a proxy misconfiguration`);
  } else if (input.asn === null) {
    add("unrouted", "No origin AS announces this address in the shipped routing data");
  }
  for (const l of input.lists) {
    if (l.listed !== true) continue;
    if (l.list === "tor-exits") add("tor_exit", "Tor exit relay: traffic is anonymised (The Tor Project's exit list)");
    else if (l.list === "spamhaus-asndrop") add("spamhaus_asndrop", `Origin AS is on Spamhaus ASN-DROP (${l.detail})`);
    else add("spamhaus_drop", `Inside a netblock on ${l.name} (${l.detail}): hijacked or run by cybercriminals`);
  }
  if (input.network.type === "hosting") {
    if (input.network.kind === "cdn") add("cdn_edge", `CDN or reverse-proxy edge (${input.network.provider}): the real client is hidden behind it`);
    else add("hosting", `Hosting or datacenter network (${input.network.provider}): rarely a person's own connection`);
  }
  const score = Math.min(100, reasons.reduce((s, r) => s + r.points, 0));
  return { score, level: riskLevel(score), reasons };
}

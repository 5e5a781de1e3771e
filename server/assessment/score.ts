// From signals to a verdict: the score is the sum of the signal weights clamped to 0..100, the risk level comes
// from fixed bands, and each level has a default decision that a matching rule may override. SIGNAL_WEIGHTS is
// the one table of default weights by signal code (the /ip risk score reads its network and privacy weights here
// too), so weights learned per code replace them in one place.
import type { Decision, RiskLevel, Signal } from "./schemas";

type EventName = "signup" | "login" | "checkout" | "form" | "api";
export interface SignalWeight {
  weight: number;
  /** A different weight for some events (server-to-server API calls come from data centres by nature). */
  byEvent?: Partial<Record<EventName, number>>;
}

export const SIGNAL_WEIGHTS = {
  ip_tor_exit: { weight: 45 },
  ip_vpn: { weight: 25 },
  // Ordinary Safari users with iCloud+ send through Private Relay: only a slight signal.
  ip_private_relay: { weight: 5 },
  ip_hosting: { weight: 20, byEvent: { api: 5 } },
  ip_cdn_edge: { weight: 10, byEvent: { api: 5 } },
  // A crawler verified by its operator's ranges is expected on forms it indexes and APIs it calls; elsewhere neutral.
  ip_verified_crawler: { weight: 0, byEvent: { form: -20, api: -20 } },
  ua_spoofed_crawler: { weight: 50 },
  ip_blocklisted: { weight: 50 },
  asn_blocklisted: { weight: 50 },
  ip_not_public: { weight: 20 },
  geo_mismatch: { weight: 20 },
  ua_missing: { weight: 15 },
  ua_automation: { weight: 35 },
  ua_unusual: { weight: 10 },
} as const satisfies Record<string, SignalWeight>;

export type WeightedSignalCode = keyof typeof SIGNAL_WEIGHTS;

/** The weight of a signal for an event, scaled by `factor` (an old list counts half or a quarter), rounded. */
export function signalWeight(code: WeightedSignalCode, event?: EventName, factor = 1): number {
  const w: SignalWeight = SIGNAL_WEIGHTS[code];
  const base = (event && w.byEvent?.[event]) ?? w.weight;
  return Math.round(base * factor);
}

export const RISK_BANDS: { level: RiskLevel; below: number; decision: Decision }[] = [
  { level: "low", below: 30, decision: "allow" },
  { level: "medium", below: 60, decision: "review" },
  { level: "high", below: 80, decision: "challenge" },
  { level: "critical", below: Infinity, decision: "block" },
];

export function scoreOf(signals: readonly Signal[]): number {
  const sum = signals.reduce((n, s) => n + s.weight, 0);
  return Math.max(0, Math.min(100, Math.round(sum)));
}

export function bandOf(score: number): { level: RiskLevel; decision: Decision } {
  const band = RISK_BANDS.find((b) => score < b.below)!;
  return { level: band.level, decision: band.decision };
}

/** For the OpenAPI description and the docs. */
export const SCORING_DOC =
  "`score` is the sum of the weights of the `signals` (each names its sources), clamped to 0..100. `risk_level`: low below 30, medium 30-59, high 60-79, critical 80 and above. Default `decision` by level: low allow, medium review, high challenge, critical block. Enabled rules are then evaluated in ascending `priority`; every match is listed in `rules` and the first one's action replaces the decision (`decided_by: rule`), so an `allow` rule can whitelist. A signal from an evidence list older than its freshness window (Tor 7 days; VPN, relay and crawlers 30; cloud, CDN, platform and monitors 90) counts half, past twice the window a quarter, and its reason gives the list's date. A verified crawler (user agent and address both the crawler's) lowers the score of form and api events; a user agent claiming a crawler from outside its published ranges is `ua_spoofed_crawler`.";

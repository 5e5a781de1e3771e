// From signals to a verdict: the score is the sum of the signal weights clamped to 0..100, the risk level comes
// from fixed bands, and each level has a default decision that a matching rule may override. The default weight of
// every signal code is in one table, SIGNALS in signal-weights.ts (the /ip risk score reads its network and privacy
// weights there too, /device/check its device weights), so weights learned per code replace them in one place. It
// sits below the assessment, the /ip risk score, weights and the backtest, which all weigh or band scores, and
// imports none of them.
import { signalsOf } from "./signal-weights";

export { SIGNALS, SIGNAL_CODES, isSignalCode, type SignalCode, type SignalGroup } from "./signal-weights";

export const ASSESSED_EVENTS = ["signup", "login", "checkout", "form", "api", "payment"] as const;
export const RISK_LEVELS = ["low", "medium", "high", "critical"] as const;
export const DECISIONS = ["allow", "review", "challenge", "block"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export type Decision = (typeof DECISIONS)[number];
type EventName = (typeof ASSESSED_EVENTS)[number];
export interface SignalWeight {
  weight: number;
  /** A different weight for some events (server-to-server API calls come from data centres by nature). */
  byEvent?: Partial<Record<EventName, number>>;
}

/**
 * The signals weighed by event and by their evidence list's age (privacy, network, user agent, account history): the
 * part of the one table (signal-weights.ts) that `signalWeight` reads. Email, velocity, device and amount codes keep
 * one weight (a velocity signal: its tier's) and their modules read it from the same table.
 */
export const SIGNAL_WEIGHTS = signalsOf("privacy", "network", "user_agent", "account");

export type WeightedSignalCode = keyof typeof SIGNAL_WEIGHTS;

/** Which weights a workspace scores with: the defaults above, or weights learned from its labels (server/weights). */
export type WeightSet = "default" | "learned";
/** Learned points by signal code; a code without one keeps its default. */
export type LearnedWeights = Readonly<Record<string, number>>;

/**
 * The weight of a signal for an event, scaled by `factor` (an old list counts half or a quarter), rounded. With
 * `learned`, a code's learned weight replaces its default for every event (it was fitted over all of them), and the
 * freshness factor still applies: a stale Tor list counts half of whichever weight is in use.
 */
export function signalWeight(
  code: WeightedSignalCode,
  event?: EventName,
  factor = 1,
  learned?: LearnedWeights | null,
): number {
  const w: SignalWeight = SIGNAL_WEIGHTS[code];
  const base = learned?.[code] ?? (event && w.byEvent?.[event]) ?? w.weight;
  return Math.round(base * factor);
}

const isTableCode = (code: string): code is WeightedSignalCode => Object.hasOwn(SIGNAL_WEIGHTS, code);

/** The freshness factor a table signal was weighed with (1, 0.75, 0.5 or 0.25), read back from its default weight. */
function freshnessFactorOf(code: WeightedSignalCode, event: EventName, weight: number): number {
  const base = signalWeight(code, event);
  if (base === 0) return 1;
  return [1, 0.75, 0.5, 0.25].find((f) => Math.round(base * f) === weight) ?? weight / base;
}

/**
 * The signals as weighed by the workspace's set. Evidence modules weigh with the defaults; with learned weights each
 * code that has one is re-weighed here, table codes through `signalWeight` (keeping their freshness factor), the
 * others (email, velocity, amount, device codes) taking the learned weight as it is.
 */
export function weighSignals<S extends { code: string; weight: number }>(
  signals: readonly S[],
  event: EventName,
  learned: LearnedWeights | null,
): S[] {
  if (!learned) return [...signals];
  return signals.map((s) => {
    if (learned[s.code] === undefined) return s;
    const weight = isTableCode(s.code)
      ? signalWeight(s.code, event, freshnessFactorOf(s.code, event, s.weight), learned)
      : Math.round(learned[s.code]!);
    return { ...s, weight };
  });
}

export const RISK_BANDS: { level: RiskLevel; below: number; decision: Decision }[] = [
  { level: "low", below: 30, decision: "allow" },
  { level: "medium", below: 60, decision: "review" },
  { level: "high", below: 80, decision: "challenge" },
  { level: "critical", below: Infinity, decision: "block" },
];

export function scoreOf(signals: readonly { weight: number }[]): number {
  const sum = signals.reduce((n, s) => n + s.weight, 0);
  return Math.max(0, Math.min(100, Math.round(sum)));
}

export function bandOf(score: number): { level: RiskLevel; decision: Decision } {
  const band = RISK_BANDS.find((b) => score < b.below)!;
  return { level: band.level, decision: band.decision };
}

/** For the OpenAPI description and the docs. */
export const SCORING_DOC =
  "`score` is the sum of the weights of the `signals` (each names its sources), clamped to 0..100. `risk_level`: low below 30, medium 30-59, high 60-79, critical 80 and above. Default `decision` by level: low allow, medium review, high challenge, critical block. Enabled rules are then evaluated in ascending `priority`; every match is listed in `rules` and the first one's action replaces the decision (`decided_by: rule`), so an `allow` rule can whitelist. A signal from an evidence list older than its freshness window (Tor 7 days; relay, scanners and monitors 90; VPN and crawlers 180; cloud, hosting, CDN and platform 365) counts three quarters, past twice the window half and past four times it a quarter (a Tor list: half past 7 days, a quarter past 14, since exits change daily), and its reason gives the list's date, its age and what that age means; a listed Tor exit, VPN provider's exit or scanner on a hosting or CDN network also carries that network's own `ip_hosting` or `ip_cdn_edge` signal (the list says who uses the address, not whose network it is), so it never scores below a plain address of the same network. A VPN provider's published exit is `ip_vpn`; an address in a VPN operator's network or ASN (medium confidence) is `ip_vpn_network`; an internet-wide scanner's address is `ip_scanner`; `ip_hosting` names the operator and says \"VPN-capable\" when the hosting ASN also carries VPN exits. A verified crawler (user agent and address both the crawler's) lowers the score of form and api events; a user agent claiming a crawler from outside its published ranges is `ua_spoofed_crawler`. `weights` says which weights scored: `default`, or `learned` when the workspace switched to weights fitted from its own outcome labels (GET /weights, POST /weights/mode); every signal lists the weight actually used.";

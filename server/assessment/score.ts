// From signals to a verdict: the score is the sum of the signal weights clamped to 0..100, the risk level comes
// from fixed bands, and each level has a default decision that a matching rule may override.
import type { Decision, RiskLevel, Signal } from "./schemas";

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
  "`score` is the sum of the weights of the `signals` (each names its sources), clamped to 0..100. `risk_level`: low below 30, medium 30-59, high 60-79, critical 80 and above. Default `decision` by level: low allow, medium review, high challenge, critical block. Enabled rules are then evaluated in ascending `priority`; every match is listed in `rules` and the first one's action replaces the decision (`decided_by: rule`), so an `allow` rule can whitelist.";

// Large checkout amounts raise the stakes of a wrong "allow". Currency-agnostic on purpose: the threshold is in
// major units and the operator sets it for the currency they mostly sell in.
import { SIGNALS } from "../scoring/signal-weights";
import { highAmount } from "./config";
import type { AssessRequest, Signal } from "./schemas";

export function amountSignals(req: AssessRequest): Signal[] {
  if (req.event !== "checkout" || req.amount === undefined) return [];
  const high = highAmount();
  const money = `${req.amount}${req.currency ? ` ${req.currency}` : ""}`;
  if (req.amount >= high * 5) {
    return [
      {
        code: "amount_very_high",
        weight: SIGNALS.amount_very_high.weight,
        reason: `The amount ${money} is at least five times the high-value threshold (${high}): check the order by hand.`,
        evidence: ["request"],
      },
    ];
  }
  if (req.amount >= high) {
    return [
      {
        code: "amount_high",
        weight: SIGNALS.amount_high.weight,
        reason: `The amount ${money} is at or above the high-value threshold (${high}).`,
        evidence: ["request"],
      },
    ];
  }
  return [];
}

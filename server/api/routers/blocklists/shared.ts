// What several procedures of the blocklists router share (schemas, helpers), or what other modules import from it.
import type { TargetResult } from "../../../blocklists/schemas";
import type { GivenBack } from "../../trpc";

export const MAX_BLOCKLIST_TARGETS = 20;

const PLURAL = { target: "targets", address: "addresses" } as const;

/**
 * A checked target no list answered for: every list it was asked of was `unavailable` (no usable answer in time).
 * What we failed to answer is given back (DESIGN "Charging"), one unit per such target; a list that refused (an
 * operator's error code) did answer, and a target no configured list covers is answered by saying so.
 */
export function unansweredTargets(
  results: Pick<TargetResult, "target" | "lists">[],
  what: "target" | "address",
): GivenBack | null {
  const missed = results.filter((r) => r.lists.length > 0 && r.lists.every((l) => l.status === "unavailable"));
  if (missed.length === 0) return null;
  const names = missed.slice(0, 5).map((r) => r.target);
  const more = missed.length > names.length ? ` and ${missed.length - names.length} more` : "";
  return {
    units: missed.length,
    reason: `${missed.length} ${missed.length === 1 ? what : PLURAL[what]} not answered: no blocklist answered in time for ${names.join(", ")}${more}.`,
  };
}

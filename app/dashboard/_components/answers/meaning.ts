// What a yes/no field of a lookup means for the person reading it, by the field's name: "disposable: true" is bad
// news, "valid: true" good news, "freeProvider: true" neither. Colours follow this, never the value itself.
import type { Meaning } from "../Flag";

/** Fields for which `true` is a warning. */
const BAD_WHEN_TRUE = new Set([
  "disposable",
  "tor",
  "torExit",
  "vpn",
  "relay",
  "proxy",
  "bogon",
  "expired",
  "notYetValid",
  "selfSigned",
  "listed",
  "nullMx",
  "hosting",
  "anonymizer",
  "shadowed",
]);

/** Fields for which `true` is good news. */
const GOOD_WHEN_TRUE = new Set([
  "valid",
  "connected",
  "chainVerified",
  "nameMatches",
  "acceptsMail",
  "exists",
  "dnssecAuthenticated",
  "knownSuffix",
  "reachable",
  "online",
]);

export function meaningOf(key: string | undefined, value: boolean | null | undefined): Meaning {
  if (value === null || value === undefined || !key) return "neutral";
  if (BAD_WHEN_TRUE.has(key)) return value ? "bad" : "good";
  if (GOOD_WHEN_TRUE.has(key)) return value ? "good" : "bad";
  return "neutral";
}

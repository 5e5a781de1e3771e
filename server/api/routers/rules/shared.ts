// What several procedures of the rules router share (schemas, helpers), or what other modules import from it.
import { conditionLanguageDoc } from "../../../rules/conditions";
import { factsDoc } from "../../../rules/facts";
import { authenticated } from "../../trpc";

/** Rules are unmetered but keep their capability check (spec Limits rule 5): capability `full`. */
export const rulesProcedure = authenticated.meta({
  requires: { capability: "full", subject: "Rules need" },
  // Names and condition values are free text: tabs and line breaks pass, NUL never (input-screen.ts).
  freeText: ["name", "conditions.value", "expression"],
});

export const TAGS = ["Rules"];

export const LANGUAGE =
  "A rule has either `conditions` or an `expression` (send exactly one). `conditions` is a list of 1 to 20 `{ field, op, value }` tests that must all hold; `in`/`not_in` take a list of values; `cidr` takes a CIDR or a list of CIDRs; values are trimmed and saved in canonical form (ranges, addresses, upper-case country and currency codes, other strings lower-case except user_agent, device_id and user_id; `contains` ignores case). Condition fields: " +
  conditionLanguageDoc() +
  '. An `expression` is CEL (Common Expression Language: `==`, `!=`, `<`, `<=`, `>`, `>=`, `in`, `&&`, `||`, `!`, `? :`, arithmetic, string methods `contains`, `startsWith`, `endsWith`, `lowerAscii`, `size`, list macros `exists`, `all`, `exists_one`, `filter`, `map` over `signals` or `ip.lists`, `has(email.address)` to ask whether a fact is known, and `ip.address.inCidr("203.0.113.0/24")` or `.inCidr([...])` for ranges; `in_list("name", value)` for membership in one of the workspace\'s named lists (/v1/lists; the name is a quoted literal, and a list the workspace does not have is 400 INVALID_REQUEST when the rule is saved), e.g. `in_list("blocked_emails", email.address)` or `in_list("office_networks", ip.address)`; `matches` and `cel.bind` are not available), at most 4,000 characters, and must give true or false; e.g. `ip.country != billing_country && amount > 500` or `velocity.device_users_1h > 3 || "email_disposable" in signals`. Saving checks it against the identifiers below: an unknown identifier, a type error or a syntax error is 400 INVALID_REQUEST whose message gives the line, column and offset and what to change. Identifiers: ' +
  factsDoc() +
  ". A fact that is unknown for an assessment (no email, no location) makes any test on it false, even `!=`. Condition fields are names for the same facts, and both forms run through the same evaluator. A rule that fails to evaluate (e.g. division by zero) is listed in the assessment's `rule_errors` and skipped, never an error of the assessment; all rules of one assessment share a time budget. `mode: shadow` rules are evaluated and listed in `shadow_rules` (and recorded in the event), never changing the decision.";

// Rule packs: rules we ship, ready to enable, for an attack whose facts /assess already computes. A pack is off until
// a workspace enables it, which creates its rules as the workspace's own (ordinary rules from then on: listed,
// edited, shadowed, deleted, audited like any other); before that each rule's expression backtests like any rule's
// (POST /rules/backtest). The first pack is card testing (issue 45, item 4): scripts trying stolen card numbers
// through one checkout, many cards from one device or address in an hour and most of them declined.
import type { Actor } from "../audit/audit";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { createRule, listRules, type RuleAction, type RuleRecord } from "./rules";

export interface PackRule {
  name: string;
  action: RuleAction;
  expression: string;
  why: string;
}

export interface RulePack {
  id: string;
  name: string;
  description: string;
  rules: PackRule[];
}

export const RULE_PACKS: readonly RulePack[] = [
  {
    id: "card_testing",
    name: "Card testing",
    description:
      "Stolen card numbers tried one after another through one checkout: many different cards from one device or address within an hour, most of them declined, often for small amounts. Send `payment` with checkout and payment events for these facts.",
    rules: [
      {
        name: "Card-testing burst from one device",
        action: "block",
        expression: "device.cards_1h >= 5 && device.declines_1h >= 3",
        why: "5 or more different cards from one device in an hour with 3 or more declines: no shopper owns that many cards.",
      },
      {
        name: "Card-testing burst from one address",
        action: "challenge",
        expression: "ip.cards_1h >= 10 && ip.declines_1h >= 6",
        why: "10 or more cards from one IP address in an hour with 6 or more declines; an address may be shared (an office, a carrier), so a challenge rather than a block.",
      },
      {
        name: "Small probe after declines",
        action: "challenge",
        expression: "payment.small_amount && device.declines_1h >= 2",
        why: "A small charge from a device with 2 or more declines in the hour: testers probe cards with amounts nobody notices.",
      },
      {
        name: "One card declined again and again",
        action: "review",
        expression: "card.declines_24h >= 5",
        why: "The same card declined 5 or more times in 24 hours, from any device.",
      },
    ],
  },
];

const samePackRule = (r: RuleRecord, p: PackRule) => r.name === p.name && r.expression === p.expression;

/** The packs, each with whether the workspace has all its rules (enabled). */
export async function listRulePacks(db: Db, workspaceId: string): Promise<(RulePack & { enabled: boolean })[]> {
  const rules = await listRules(db, workspaceId);
  return RULE_PACKS.map((pack) => ({
    ...pack,
    enabled: pack.rules.every((p) => rules.some((r) => samePackRule(r, p))),
  }));
}

/** Creates the pack's rules the workspace does not have yet (by name and expression); enabling twice adds nothing. */
export async function enableRulePackOrThrow(
  db: Db,
  a: { workspaceId: string; requestId: string; actor: Actor; packId: string; mode?: "active" | "shadow" },
): Promise<{ pack: RulePack; rules: RuleRecord[] }> {
  const pack = RULE_PACKS.find((p) => p.id === a.packId);
  if (!pack) throw new AppError("NOT_FOUND", `No rule pack ${a.packId}; GET /rule-packs lists them.`);
  const existing = await listRules(db, a.workspaceId);
  const out: RuleRecord[] = [];
  for (const p of pack.rules) {
    const have = existing.find((r) => samePackRule(r, p));
    out.push(
      have ??
        (await createRule(db, {
          workspaceId: a.workspaceId,
          requestId: a.requestId,
          actor: a.actor,
          rule: { name: p.name, action: p.action, expression: p.expression, mode: a.mode },
        })),
    );
  }
  return { pack, rules: out };
}

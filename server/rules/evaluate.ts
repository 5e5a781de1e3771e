// Evaluates stored rules against what an assessment learned. A fact that is unknown (no email, no geolocation)
// never satisfies a condition, not even `neq`/`not_in`: a rule must not fire on missing evidence.
import { ipInCidr, parseIpStrict } from "../net/ip";
import type { Condition, ConditionField } from "./conditions";

export type RuleFacts = Record<ConditionField, string | number | boolean | null>;

export interface RuleLike {
  id: string;
  name: string;
  action: string;
  conditions: unknown;
}

const norm = (field: ConditionField, v: string | number | boolean): string | number | boolean => {
  if (typeof v !== "string") return v;
  if (field === "country" || field === "billing_country" || field === "currency") return v.toUpperCase();
  if (field === "ip") return parseIpStrict(v)?.address ?? v;
  if (field === "user_agent" || field === "device_id" || field === "user_id") return v;
  return v.toLowerCase();
};

export function conditionHolds(c: Condition, facts: RuleFacts): boolean {
  const fact = facts[c.field];
  if (fact === null || fact === undefined) return false;
  const f = norm(c.field, fact);
  const list = (Array.isArray(c.value) ? c.value : [c.value]).map((v) => norm(c.field, v));
  switch (c.op) {
    case "eq":
      return f === list[0];
    case "neq":
      return f !== list[0];
    case "in":
      return list.includes(f);
    case "not_in":
      return !list.includes(f);
    case "gt":
      return typeof f === "number" && f > (list[0] as number);
    case "gte":
      return typeof f === "number" && f >= (list[0] as number);
    case "lt":
      return typeof f === "number" && f < (list[0] as number);
    case "lte":
      return typeof f === "number" && f <= (list[0] as number);
    case "contains": {
      const hay = String(f).toLowerCase();
      return list.some((v) => hay.includes(String(v).toLowerCase()));
    }
    case "cidr":
      return list.some((cidr) => ipInCidr(String(f), String(cidr)));
  }
}

/** True when every condition holds. A malformed stored condition list matches nothing. */
export function ruleMatches(rule: RuleLike, facts: RuleFacts): boolean {
  const conds = rule.conditions;
  if (!Array.isArray(conds) || conds.length === 0) return false;
  return (conds as Condition[]).every((c) => conditionHolds(c, facts));
}

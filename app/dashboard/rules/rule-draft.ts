// A rule as the editor holds it (every value a string, as typed), its request body for the rules procedures, and the
// server's refusal split by where it belongs: a condition row, the expression (with its line and column) or the form.
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/api/root";
import { CONDITION_FIELDS, OPS_BY_KIND, type ConditionField, type ConditionOp } from "../../../server/rules/conditions";
import { dashboardMessage } from "../_components/dashboard-words";
import { inFormWords, refusedFields } from "../_components/field-words";

type Outputs = inferRouterOutputs<AppRouter>;
type Inputs = inferRouterInputs<AppRouter>;
export type RuleRecord = Outputs["rules"]["list"]["items"][number];
export type RuleAction = RuleRecord["action"];
export type RuleMode = RuleRecord["mode"];
export type BacktestResult = Outputs["rules"]["backtest"];
export type RuleQuality = Outputs["workspace"]["analyticsSummary"]["rules"][number];
type CreateBody = Inputs["rules"]["create"];

/** The decisions a rule can make, in the order of their strength, with what each means for the event. */
export const ACTION_TEXT: Record<RuleAction, string> = {
  allow: "Allow: let the event through (overrides the score)",
  review: "Review: let it through and have a person look at it",
  challenge: "Challenge: ask for more proof before going on",
  block: "Block: refuse the event",
};
export const ACTIONS = Object.keys(ACTION_TEXT) as RuleAction[];

export const OP_LABEL: Record<ConditionOp, string> = {
  eq: "is",
  neq: "is not",
  in: "is one of",
  not_in: "is none of",
  gt: "is more than",
  gte: "is at least",
  lt: "is less than",
  lte: "is at most",
  contains: "contains",
  cidr: "is in the range",
};

export const FIELD_NAMES = Object.keys(CONDITION_FIELDS) as ConditionField[];
export const opsFor = (field: ConditionField) => OPS_BY_KIND[CONDITION_FIELDS[field].kind];
export const isListOp = (op: ConditionOp) => op === "in" || op === "not_in" || op === "cidr";

export interface ConditionDraft {
  field: ConditionField;
  op: ConditionOp;
  value: string;
}

export interface RuleDraft {
  name: string;
  action: RuleAction;
  /** null until the user chooses: whether a new rule decides or only records is never picked for them. */
  mode: RuleMode | null;
  enabled: boolean;
  form: "conditions" | "expression";
  conditions: ConditionDraft[];
  expression: string;
}

export const newCondition = (): ConditionDraft => ({ field: "country", op: "eq", value: "" });

export function emptyDraft(): RuleDraft {
  return {
    name: "",
    action: "review",
    mode: null,
    enabled: true,
    form: "conditions",
    conditions: [newCondition()],
    expression: "",
  };
}

export function draftOf(rule: RuleRecord): RuleDraft {
  return {
    name: rule.name,
    action: rule.action,
    mode: rule.mode,
    enabled: rule.enabled,
    form: rule.expression !== null ? "expression" : "conditions",
    conditions: (rule.conditions ?? []).map((c) => ({
      field: c.field as ConditionField,
      op: c.op,
      value: Array.isArray(c.value) ? c.value.join(", ") : String(c.value),
    })),
    expression: rule.expression ?? "",
  };
}

/** A typed value as the API takes it; a value that does not read as its kind is sent as typed, for the server to explain. */
function valueOf(c: ConditionDraft): string | number | boolean | (string | number)[] {
  const kind = CONDITION_FIELDS[c.field].kind;
  const one = (s: string): string | number | boolean => {
    const t = s.trim();
    if (kind === "number" && t !== "" && Number.isFinite(Number(t))) return Number(t);
    if (kind === "boolean" && (t === "true" || t === "false")) return t === "true";
    return t;
  };
  if (isListOp(c.op)) {
    const parts = c.value
      .split(/[,\n]/)
      .map((s) => s.trim())
      .filter(Boolean);
    return c.op === "cidr" && parts.length === 1 ? parts[0]! : (parts.map(one) as (string | number)[]);
  }
  return one(c.value);
}

/** The condition or expression of a draft, as both the create and the backtest procedures take it. */
export function ruleBody(d: RuleDraft): Pick<CreateBody, "conditions" | "expression"> {
  return d.form === "expression"
    ? { expression: d.expression }
    : { conditions: d.conditions.map((c) => ({ field: c.field, op: c.op, value: valueOf(c) })) };
}

export interface ExpressionError {
  line: number;
  column: number;
  /** Our explanation, without the checker's own words. */
  message: string;
  /** The CEL checker's own words, when ours could not say them otherwise (shown behind a disclosure). */
  checker?: string;
}

/** How server/rules/expression.ts quotes the checker's words (its CHECKER_SAYS), as test/rules/expression.test.ts checks. */
const CHECKER_WORDS = / \(the CEL checker says “([\s\S]+?)”\)/;

/** A verdict on an expression split into our explanation and the checker's words it quotes, if any. */
export function expressionVerdict(line: number, column: number, text: string): ExpressionError {
  const quoted = text.match(CHECKER_WORDS);
  if (!quoted) return { line, column, message: text };
  return { line, column, message: text.replace(CHECKER_WORDS, ""), checker: quoted[1] };
}

export interface DraftErrors {
  /** Condition row index to what is wrong with it. */
  conditions: Record<number, string>;
  expression: ExpressionError | null;
  /** What is wrong with the name, said by its label ("Name must not be empty."), or null. */
  name: string | null;
  /** Everything that belongs to no single field. */
  other: string[];
}

const EXPRESSION_AT = /line (\d+), column (\d+)(?: \(offset \d+\))?: ([\s\S]*)$/;

/** The form's fields other than the conditions and the expression, by the API's names, with their labels. */
const RULE_LABELS: Record<string, string> = {
  name: "Name",
  action: "Action when it matches",
  mode: "Enforce or shadow",
  enabled: "Enabled",
};

/**
 * The server's words about one condition row, said as the row says it: the API names the row's field and test by
 * their codes ("amount gt needs a number", "each value of country in must be a two-letter ISO 3166-1 country
 * code"), which the row shows as "amount" and "is more than" right beside the message; the message says what the
 * value must be ("The value must be a number", "Each value must be a two-letter country code such as DE").
 */
export function conditionWords(text: string): string {
  const plain = text
    .replace(/a two-letter ISO 3166-1 country code/g, "a two-letter country code such as DE")
    .replace(/a string of 1 to (\d+) characters/g, "1 to $1 characters long")
    .replace(/a CIDR such as/g, "an address range such as")
    .replace(/a list of 1 to (\d+) values/g, "1 to $1 values separated by commas")
    .replace(/, or a list of 1 to (\d+)$/, ", or up to $1 of them separated by commas");
  const each = plain.match(/^each value of [a-z_]+ [a-z_]+ must be ([\s\S]*)$/);
  if (each) return `Each value must be ${each[1]}.`;
  const one = plain.match(/^[a-z_]+ [a-z_]+ needs ([\s\S]*)$/);
  if (one) return `The value must be ${one[1]}.`;
  return plain;
}

/**
 * Splits the server's message ("conditions.0: country eq needs ...; expression: Invalid expression at line 1,
 * column 5 (offset 4): unknown identifier ...") by the field each part names. A part's own text may hold "; "
 * (a "did you mean"), so a split happens only where the next part starts with a path and a colon.
 */
export function splitServerError(message: string | undefined): DraftErrors {
  const out: DraftErrors = { conditions: {}, expression: null, name: null, other: [] };
  if (!message) return out;
  for (const part of dashboardMessage(message).split(/; (?=[a-z_]+(?:\.[a-z0-9_]+)*: )/)) {
    const row = part.match(/^conditions\.(\d+)(?:\.[a-z_]+)?: ([\s\S]*)$/);
    if (row) {
      out.conditions[Number(row[1])] = conditionWords(row[2]!);
      continue;
    }
    const at = part.match(EXPRESSION_AT);
    if (part.startsWith("expression: ") && at) {
      out.expression = expressionVerdict(Number(at[1]), Number(at[2]), at[3]!);
      continue;
    }
    // "name: must not be empty" is said by the field's label, beside that field: "Name must not be empty."
    const fields = refusedFields(part, RULE_LABELS);
    if (fields[0] === "name" && out.name === null) out.name = inFormWords(part, RULE_LABELS);
    else if (fields.length) out.other.push(inFormWords(part, RULE_LABELS));
    else out.other.push(part.replace(/^expression: /, "Expression: "));
  }
  return out;
}

export const percent = (r: number | null | undefined) =>
  r === null || r === undefined ? "—" : `${Math.round(r * 1000) / 10} %`;

/** "A, B or C" */
export function orList(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/**
 * A warning for an active `allow` or `review` rule that does not bound the score: the first matching rule replaces
 * the score's decision, so such a rule lets through requests whose score alone would block them (critical, 80 and
 * above). Null when the rule bounds the score (a `score` condition below or at most a value, or an expression that
 * reads `score` or `risk_level`), is in shadow mode, or challenges or blocks.
 */
export function overrideWarning(d: RuleDraft): string | null {
  if (d.mode !== "active" || (d.action !== "allow" && d.action !== "review")) return null;
  const bounded =
    d.form === "expression"
      ? /\b(score|risk_level)\b/.test(d.expression)
      : d.conditions.some((c) => c.field === "score" && (c.op === "lt" || c.op === "lte"));
  if (bounded) return null;
  const outcome = d.action === "allow" ? "allowed" : "only sent to review";
  return `This rule decides before the score: a request it matches is ${outcome} even when its score alone (80 or more) would block it. To keep blocking the riskiest ones, add a condition that the score is below 80.`;
}

// One evaluator for both forms of a rule: `conditions` are translated into the CEL expression they mean, and every
// rule runs as a compiled CEL program over the assessment's facts (./facts.ts). A fact that is unknown (no email,
// no geolocation) is absent, so a test on it cannot hold, not even `!=`: a rule must not fire on missing evidence.
// Evaluation never throws: a rule that fails is reported and skipped, and the whole pass has a time budget.
import { FACTS, toCelContext, type Facts } from "./facts";
import { CONDITION_FIELDS, normalizeCondition, type Condition } from "./conditions";
import { compileExpression, describeProblem, withListLookup, type CompiledExpression } from "./expression";
import { evaluationBudgetMs } from "./config";

export interface RuleLike {
  id: string;
  name: string;
  action: string;
  mode?: string | null;
  conditions: unknown;
  expression?: string | null;
}

function literal(fact: keyof typeof FACTS, v: string | number | boolean): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "boolean") return String(v);
  // CEL keeps int and double apart in list literals: a double fact gets double literals.
  const text = String(v);
  return FACTS[fact].type === "double" && Number.isInteger(v) && !/e/i.test(text) ? `${text}.0` : text;
}

/** The CEL expression a condition list means (all conditions hold). */
export function conditionsToExpression(conditions: Condition[]): string {
  return conditions
    .map((raw) => {
      const c = normalizeCondition(raw);
      const fact = CONDITION_FIELDS[c.field].fact;
      const values = Array.isArray(c.value) ? c.value : [c.value];
      const first = literal(fact, values[0]!);
      const list = `[${values.map((v) => literal(fact, v)).join(", ")}]`;
      switch (c.op) {
        case "eq":
          return `${fact} == ${first}`;
        case "neq":
          return `${fact} != ${first}`;
        case "in":
          return `${fact} in ${list}`;
        case "not_in":
          return `!(${fact} in ${list})`;
        case "gt":
          return `${fact} > ${first}`;
        case "gte":
          return `${fact} >= ${first}`;
        case "lt":
          return `${fact} < ${first}`;
        case "lte":
          return `${fact} <= ${first}`;
        case "contains":
          return `(${values.map((v) => `${fact}.lowerAscii().contains(${literal(fact, String(v).toLowerCase())})`).join(" || ")})`;
        case "cidr":
          return `${fact}.inCidr(${list})`;
      }
    })
    .join(" && ");
}

/** The CEL source of a stored rule, whichever form it has; null when it has neither. */
export function ruleSource(rule: Pick<RuleLike, "conditions" | "expression">): string | null {
  if (typeof rule.expression === "string" && rule.expression.trim() !== "") return rule.expression;
  if (Array.isArray(rule.conditions) && rule.conditions.length > 0)
    return conditionsToExpression(rule.conditions as Condition[]);
  return null;
}

type Compiled = { ok: true; run: CompiledExpression } | { ok: false; message: string };
const CACHE_MAX = 2000;
const cache = new Map<string, Compiled>();

/** Compiled once per distinct source (parsing is the expensive part); a bounded cache. */
export function compileRule(rule: Pick<RuleLike, "conditions" | "expression">): Compiled {
  let source: string | null;
  try {
    source = ruleSource(rule);
  } catch {
    source = null;
  }
  if (source === null) return { ok: false, message: "The rule has neither valid conditions nor an expression." };
  const hit = cache.get(source);
  if (hit) return hit;
  const c = compileExpression(source, { stored: true });
  const compiled: Compiled = c.ok ? { ok: true, run: c.run } : { ok: false, message: describeProblem(c.problem) };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(source, compiled);
  return compiled;
}

/** Errors that only say a fact is unknown for this assessment: the rule does not match, nothing failed. */
const MISSING_FACT = new Set(["no_such_key", "unknown_variable"]);

export type Verdict = { matched: boolean; error: string | null };

/** Runs one rule on a prepared context (in_list answered by `lists`, else nothing is listed); never throws. */
export function runRule(
  compiled: Compiled,
  context: Record<string, unknown>,
  lists?: (name: string, value: unknown) => boolean,
): Verdict {
  if (!compiled.ok) return { matched: false, error: compiled.message };
  try {
    const value = withListLookup(lists, () => compiled.run(context));
    if (typeof value === "boolean") return { matched: value, error: null };
    return { matched: false, error: `The expression gave ${typeof value}, not true or false.` };
  } catch (err) {
    const e = err as { code?: string; summary?: string; message?: string };
    if (e.code && MISSING_FACT.has(e.code)) return { matched: false, error: null };
    return { matched: false, error: `Evaluation failed: ${e.summary ?? String(e.message ?? err).split("\n")[0]}` };
  }
}

export interface RulesOutcome<R extends RuleLike> {
  /** Active rules that matched, in evaluation order: the first decides. */
  matched: R[];
  /** Shadow rules that matched: reported and recorded, never deciding. */
  shadow: R[];
  /** Rules that could not be evaluated, skipped. */
  errors: { rule: R; message: string }[];
}

/** Evaluates rules (already in evaluation order) on an assessment's facts. */
export function evaluateRules<R extends RuleLike>(
  rules: readonly R[],
  facts: Facts,
  opts: { budgetMs?: number; lists?: (name: string, value: unknown) => boolean } = {},
): RulesOutcome<R> {
  const out: RulesOutcome<R> = { matched: [], shadow: [], errors: [] };
  if (rules.length === 0) return out;
  const context = toCelContext(facts);
  const budget = opts.budgetMs ?? evaluationBudgetMs();
  const started = performance.now();
  for (const rule of rules) {
    if (performance.now() - started > budget) {
      out.errors.push({ rule, message: `Skipped: the rules of this assessment ran past their ${budget} ms budget.` });
      continue;
    }
    const v = runRule(compileRule(rule), context, opts.lists);
    if (v.error) out.errors.push({ rule, message: v.error });
    else if (v.matched) (rule.mode === "shadow" ? out.shadow : out.matched).push(rule);
  }
  return out;
}

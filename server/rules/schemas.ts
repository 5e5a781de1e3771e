// zod contracts of the rules endpoints: the stored rule record, the create body, the update body and the backtest.
// A rule has exactly one of `conditions` and `expression`; an expression is compiled when it is saved, so a stored
// rule always compiles, and what is wrong is answered with its line and column.
import { z } from "zod";
import { conditionsSchema, CONDITION_FIELDS, CONDITION_OPS } from "./conditions";
import { compileExpression, describeProblem, MAX_EXPRESSION_LENGTH } from "./expression";
import { RULE_ACTIONS, RULE_MODES } from "./rules";

const conditionOut = z.object({
  field: z.enum(Object.keys(CONDITION_FIELDS) as [string, ...string[]]),
  op: z.enum(CONDITION_OPS),
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]),
});

export const ruleRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  action: z.enum(RULE_ACTIONS),
  mode: z.enum(RULE_MODES).describe("`active` rules decide; `shadow` rules are evaluated and reported in `shadow_rules` but never change a decision"),
  priority: z.number().int(),
  enabled: z.boolean(),
  conditions: z.array(conditionOut).nullable().describe("The condition list, or null for an expression rule"),
  expression: z.string().nullable().describe("The CEL expression, or null for a condition rule"),
  created_at: z.string(),
  updated_at: z.string(),
});

const name = z.string().trim().min(1).max(120).describe("A label for people, 1 to 120 characters");
const action = z.enum(RULE_ACTIONS).describe("The decision when the rule matches: allow, review, challenge or block");
const mode = z.enum(RULE_MODES).describe("`active` (default) decides; `shadow` is evaluated and recorded but never changes a decision");
const priority = z.number().int().min(-1_000_000).max(1_000_000).describe("Evaluation order: lower first; default 0");
const enabled = z.boolean().describe("Disabled rules are kept but not evaluated; default true");

/** A CEL expression that compiles against the fact table; otherwise the position and what to change. */
export const expressionSchema = z
  .string()
  .max(MAX_EXPRESSION_LENGTH, `expression: at most ${MAX_EXPRESSION_LENGTH} characters`)
  .superRefine((src, ctx) => {
    const c = compileExpression(src);
    if (!c.ok) ctx.addIssue({ code: "custom", message: describeProblem(c.problem) });
  })
  .describe("A CEL expression over the assessment's facts that is true when the rule matches, e.g. `ip.country != billing_country && amount > 500`");

const ONE_FORM = "Send exactly one of `conditions` and `expression`";

export const ruleCreateSchema = z
  .object({
    name,
    action,
    mode: mode.optional(),
    priority: priority.optional(),
    enabled: enabled.optional(),
    conditions: conditionsSchema.optional(),
    expression: expressionSchema.optional(),
  })
  .refine((b) => (b.conditions === undefined) !== (b.expression === undefined), { message: ONE_FORM });

export const ruleIdSchema = z.string().trim().min(1).max(64);

export const ruleUpdateSchema = z
  .object({
    id: ruleIdSchema,
    name: name.optional(),
    action: action.optional(),
    mode: mode.optional(),
    priority: priority.optional(),
    enabled: enabled.optional(),
    conditions: conditionsSchema.optional().describe("Replaces the rule's conditions as a whole (an expression rule becomes a condition rule)"),
    expression: expressionSchema.optional().describe("Replaces the rule's expression (a condition rule becomes an expression rule)"),
  })
  .refine((b) => ["name", "action", "mode", "priority", "enabled", "conditions", "expression"].some((k) => (b as Record<string, unknown>)[k] !== undefined), {
    message: "Send at least one of name, action, mode, priority, enabled, conditions, expression",
  })
  .refine((b) => b.conditions === undefined || b.expression === undefined, { message: ONE_FORM });

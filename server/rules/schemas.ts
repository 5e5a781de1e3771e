// zod contracts of the rules endpoints: the stored rule record, the create body, the update body and the backtest.
// A rule has exactly one of `conditions` and `expression`; an expression is compiled when it is saved, so a stored
// rule always compiles, and what is wrong is answered with its line and column.
import { z } from "zod";
import { timestampSchema, withUntilAfterSince } from "../timestamps";
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
  mode: z
    .enum(RULE_MODES)
    .describe(
      "`active` rules decide; `shadow` rules are evaluated and reported in `shadow_rules` but never change a decision",
    ),
  priority: z.number().int(),
  enabled: z.boolean(),
  conditions: z.array(conditionOut).nullable().describe("The condition list, or null for an expression rule"),
  expression: z.string().nullable().describe("The CEL expression, or null for a condition rule"),
  created_at: z.string(),
  updated_at: z.string(),
});

const name = z.string().trim().min(1).max(120).describe("A label for people, 1 to 120 characters");
const action = z.enum(RULE_ACTIONS).describe("The decision when the rule matches: allow, review, challenge or block");
const mode = z
  .enum(RULE_MODES)
  .describe("`active` (default) decides; `shadow` is evaluated and recorded but never changes a decision");
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
  .describe(
    "A CEL expression over the assessment's facts that is true when the rule matches, e.g. `ip.country != billing_country && amount > 500`. A code compared with `ip.country`, `billing_country` or `phone.country` must name a country in upper case (ISO 3166-1 alpha-2, as the facts hold it; the United Kingdom is GB): one that could never match is refused",
  );

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
    conditions: conditionsSchema
      .optional()
      .describe("Replaces the rule's conditions as a whole (an expression rule becomes a condition rule)"),
    expression: expressionSchema
      .optional()
      .describe("Replaces the rule's expression (a condition rule becomes an expression rule)"),
  })
  .refine(
    (b) =>
      ["name", "action", "mode", "priority", "enabled", "conditions", "expression"].some(
        (k) => (b as Record<string, unknown>)[k] !== undefined,
      ),
    {
      message: "Send at least one of name, action, mode, priority, enabled, conditions, expression",
    },
  )
  .refine((b) => b.conditions === undefined || b.expression === undefined, { message: ONE_FORM });

const DECISION = z.enum(RULE_ACTIONS);
const MAX_RANGE_DAYS = 400;

export const backtestInputSchema = withUntilAfterSince(
  z.object({
    rule_id: ruleIdSchema.optional().describe("Backtest this existing rule of the workspace (instead of sending one)"),
    action: action.optional().describe("The action of the rule to test (required unless `rule_id`)"),
    priority: priority
      .optional()
      .describe(
        "Its place among the workspace's rules (default 0; a new rule comes after existing rules of the same priority)",
      ),
    conditions: conditionsSchema.optional(),
    expression: expressionSchema.optional(),
    since: timestampSchema
      .optional()
      .describe("Start of the range (ISO 8601, inclusive); default 30 days before `until`"),
    until: timestampSchema.optional().describe("End of the range (ISO 8601, exclusive); default now"),
    samples: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(20)
      .describe("How many matching request ids to return (newest first), 0..100, default 20"),
  }),
)
  .refine((b) => [b.rule_id, b.conditions, b.expression].filter((x) => x !== undefined).length === 1, {
    message: "Send exactly one of `rule_id`, `conditions` and `expression`",
  })
  .refine((b) => b.rule_id !== undefined || b.action !== undefined, {
    message: "required when the rule is sent (not a `rule_id`)",
    path: ["action"],
  })
  .refine((b) => !b.since || (b.until ?? new Date()).getTime() - b.since.getTime() <= MAX_RANGE_DAYS * 86_400_000, {
    message: `the range may span at most ${MAX_RANGE_DAYS} days`,
    path: ["since"],
  });

const ratio = z.number().min(0).max(1).nullable();

export const backtestOutputSchema = z.object({
  rule: z.object({
    id: z.string().nullable(),
    action: DECISION,
    expression: z
      .string()
      .describe("The rule as the evaluator runs it (conditions are shown as the expression they mean)"),
  }),
  since: z.string(),
  until: z.string(),
  assessments: z.number().int().describe("Stored assessments evaluated in the range"),
  without_facts: z
    .number()
    .int()
    .describe("Assessments in the range recorded before facts were stored with them; not evaluated"),
  truncated: z
    .boolean()
    .describe("True when the range held more assessments than one backtest evaluates (the newest were evaluated)"),
  matched: z.number().int().describe("Assessments the rule matches"),
  match_rate: ratio,
  decision_changes: z
    .array(z.object({ from: DECISION, to: DECISION, count: z.number().int() }))
    .describe(
      "How recorded decisions would change with this rule in place at its priority (other rules as they matched then), most frequent first",
    ),
  sample_request_ids: z
    .array(z.string())
    .describe("Request ids of matching assessments, newest first (search them with GET /events)"),
  errors: z
    .object({ count: z.number().int(), first: z.string().nullable() })
    .describe("Assessments on which the rule failed to evaluate (counted as no match)"),
  labelled: z
    .object({
      fraud: z.number().int(),
      legitimate: z.number().int(),
      matched_fraud: z.number().int(),
      matched_legitimate: z.number().int(),
    })
    .describe(
      "Outcome labels in the range (POST /assess/{request_id}/outcome; every label but `legitimate` counts as fraud), overall and among the matches",
    ),
  precision: ratio.describe("matched_fraud / (matched_fraud + matched_legitimate); null without labelled matches"),
  recall: ratio.describe("matched_fraud / fraud; null without labelled fraud"),
  duration_ms: z.number().int(),
});

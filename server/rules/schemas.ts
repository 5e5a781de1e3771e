// zod contracts of the rules endpoints: the stored rule record, the create body and the update body.
import { z } from "zod";
import { conditionsSchema, CONDITION_FIELDS, CONDITION_OPS } from "./conditions";
import { RULE_ACTIONS } from "./rules";

const conditionOut = z.object({
  field: z.enum(Object.keys(CONDITION_FIELDS) as [string, ...string[]]),
  op: z.enum(CONDITION_OPS),
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]),
});

export const ruleRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  action: z.enum(RULE_ACTIONS),
  priority: z.number().int(),
  enabled: z.boolean(),
  conditions: z.array(conditionOut),
  created_at: z.string(),
  updated_at: z.string(),
});

const name = z.string().trim().min(1).max(120).describe("A label for people, 1 to 120 characters");
const action = z.enum(RULE_ACTIONS).describe("The decision when the rule matches: allow, review, challenge or block");
const priority = z.number().int().min(-1_000_000).max(1_000_000).describe("Evaluation order: lower first; default 0");
const enabled = z.boolean().describe("Disabled rules are kept but not evaluated; default true");

export const ruleCreateSchema = z.object({
  name,
  action,
  priority: priority.optional(),
  enabled: enabled.optional(),
  conditions: conditionsSchema,
});

export const ruleIdSchema = z.string().trim().min(1).max(64);

export const ruleUpdateSchema = z
  .object({
    id: ruleIdSchema,
    name: name.optional(),
    action: action.optional(),
    priority: priority.optional(),
    enabled: enabled.optional(),
    conditions: conditionsSchema.optional(),
  })
  .refine((b) => ["name", "action", "priority", "enabled", "conditions"].some((k) => (b as Record<string, unknown>)[k] !== undefined), {
    message: "Send at least one of name, action, priority, enabled, conditions",
  });

// zod contracts of the review queue (/v1/cases): snake_case fields as the rest of the API.
import { z } from "zod";
import { pageCursor } from "../pages";
import { signalSchema } from "../assessment/schemas";
import { linkedAccountSchema, paymentLineSchema } from "../users/schemas";
import { expiryTimestampSchema } from "../timestamps";

export const CASE_STATUSES = ["open", "resolved"] as const;
export const CASE_DECISIONS = ["review", "challenge"] as const;
export const RESOLUTIONS = ["fraud", "legitimate"] as const;
/** What a resolution may add to a list: the case's account, email, device or address. */
export const LIST_VALUE_SOURCES = ["user", "email", "device", "ip"] as const;

export const caseIdSchema = z.string().trim().min(1).max(64).describe("Case id (`case_…`)");

export const caseRecordSchema = z.object({
  id: z.string(),
  request_id: z.string().describe("The assessment's request id (GET /events?query=…)"),
  decision: z.enum(CASE_DECISIONS).describe("The assessment's final decision, which opened the case"),
  score: z.number().int(),
  rule: z.string().nullable().describe("Id of the rule that decided, when a rule did"),
  user_id: z.string().nullable(),
  email: z.string().nullable().describe("The assessment's email address, when it sent one (also beside a user_id)"),
  ip: z.string().nullable(),
  device_id: z.string().nullable(),
  status: z.enum(CASE_STATUSES),
  assignee: z.string().nullable().describe("User id of the member working on it"),
  resolution: z.enum(RESOLUTIONS).nullable(),
  note: z.string().nullable(),
  resolved_by: z.string().nullable().describe('Who resolved it ("user:<id>" or "api_key:<id>")'),
  resolved_at: z.string().nullable(),
  created_at: z.string(),
  age_minutes: z.number().int().describe("Minutes since the case was opened"),
});

export const caseListInputSchema = z.object({
  status: z.enum(CASE_STATUSES).default("open").describe("open (default, oldest first) or resolved (newest first)"),
  decision: z.enum(CASE_DECISIONS).optional(),
  rule: z.string().trim().min(1).max(64).optional().describe("Only cases opened by this rule's decision"),
  min_age_minutes: z.coerce
    .number()
    .int()
    .min(0)
    .max(525_600)
    .optional()
    .describe("Only cases opened at least this many minutes ago"),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: pageCursor(z.string().trim().max(64)).describe("The previous page's `next_cursor`"),
});

export const casePageSchema = z.object({
  items: z.array(caseRecordSchema),
  next_cursor: z.string().nullable(),
  counts: z
    .object({
      open: z.number().int(),
      oldest_open_minutes: z.number().int().nullable().describe("Age of the oldest open case; null when none"),
    })
    .describe("The workspace's open cases, whatever the filters"),
});

const historyItem = z.object({
  request_id: z.string(),
  event: z.string(),
  status: z.enum(["succeeded", "failed"]),
  score: z.number().int(),
  decision: z.string(),
  country: z.string().nullable(),
  ip: z.string().nullable(),
  payment: paymentLineSchema
    .nullable()
    .describe("The payment's BIN, last four, brand, amount and status, when the assessment sent one"),
  created_at: z.string(),
});

export const caseDetailSchema = caseRecordSchema.extend({
  assessment: z
    .object({
      event: z.string(),
      risk_level: z.string(),
      signals: z.array(signalSchema.pick({ code: true, weight: true })),
      rules: z.array(z.string()).describe("Ids of the rules that matched"),
      facts: z.record(z.string(), z.unknown()).describe("The facts the rules saw, the account's baseline included"),
      created_at: z.string(),
    })
    .nullable()
    .describe("The assessment that opened the case (null once its event was purged by retention)"),
  history: z.array(historyItem).describe("The account's 20 most recent assessments, newest first"),
  related: z
    .array(caseRecordSchema.extend({ shares: z.array(z.enum(["account", "ip", "device"])) }))
    .describe("Other cases of the same account, IP address or device, newest first (at most 20)"),
  linked_accounts: z
    .array(linkedAccountSchema)
    .describe(
      "Other accounts that shared the case's account's device, canonical mailbox, phone number or card in the last 30 days, with what links them (as GET /users/{user_id})",
    ),
});

export const caseAssignSchema = z.object({
  id: caseIdSchema,
  assignee: z
    .string()
    .trim()
    .min(1)
    .max(254)
    .nullable()
    .describe("A member's user id, a member's email address, \"me\" for the signed-in member, or null to unassign"),
});

export const caseResolveSchema = z.object({
  id: caseIdSchema,
  resolution: z.enum(RESOLUTIONS),
  note: z.string().trim().max(2000).optional(),
  add_to_list: z
    .object({
      list_id: z.string().trim().min(1).max(64),
      value: z
        .enum(LIST_VALUE_SOURCES)
        .describe("Which of the case's values to add: its user_id, email, device_id or IP address"),
      expires_at: expiryTimestampSchema
        .optional()
        .describe(
          "When the item stops matching: ISO 8601 date or date-time with Z or an offset, in the future, at most 9999-12-31",
        ),
    })
    .strict()
    .optional()
    .describe("Also add one of the case's values to a named list of the matching kind"),
});

export type CaseRecord = z.infer<typeof caseRecordSchema>;
export type CaseDetail = z.infer<typeof caseDetailSchema>;

// The webhook API contract (zod): field names are snake_case as the spec writes them (`event_types`).
import { z } from "zod";
import { CASE_RESOLVED, HIGH_RISK_ASSESSMENT, MONITOR_ALERT, MONITOR_RESOLVED } from "./enqueue";

export const EVENT_TYPES = [HIGH_RISK_ASSESSMENT, CASE_RESOLVED, MONITOR_ALERT, MONITOR_RESOLVED] as const;

const name = z.string().trim().min(1).max(100).describe("A label for people, 1..100 characters");
const url = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .describe(
    "The receiver: an absolute https URL on a public host (private, loopback and cloud-metadata addresses are refused with 400 TARGET_FORBIDDEN)",
  );
const eventTypes = z
  .array(z.enum(EVENT_TYPES, { error: `must be ${EVENT_TYPES.join(", ")}` }))
  .min(1)
  .max(EVENT_TYPES.length * 4)
  .describe(
    "Event types to receive: `high_risk_assessment` (an assessment scored high or critical), `case.resolved` (a review case was resolved), `monitor.alert` (a monitor's check changed for the worse, stays bad, could not run several times in a row (`check_failing`), or a run was skipped) and `monitor.resolved` (a check that alerted is good again, or runs again)",
  );

export const webhookIdSchema = z.string().trim().min(1).max(64).describe("Webhook id (`wh_…`)");

export const webhookCreateSchema = z.object({ name, url, event_types: eventTypes });

export const webhookUpdateSchema = z
  .object({ id: webhookIdSchema, name: name.optional(), url: url.optional(), event_types: eventTypes.optional() })
  .refine((v) => v.name !== undefined || v.url !== undefined || v.event_types !== undefined, {
    message: "send at least one of name, url, event_types",
  });

export const webhookRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  event_types: z.array(z.string()),
  created_at: z.string().describe("ISO 8601 timestamp"),
  updated_at: z.string().describe("ISO 8601 timestamp"),
});

export const webhookCreatedSchema = webhookRecordSchema.extend({
  secret: z.string().describe("Signing secret (`whsec_` + base64). Returned only in this response; store it now."),
});

export const deliveryRecordSchema = z.object({
  id: z.string().describe("Delivery id, sent as the `webhook-id` header (stable across retries)"),
  event_type: z.string(),
  request_id: z.string().describe("Request ID of the assessment; correlates with GET /events"),
  status: z.enum(["pending", "delivered", "failed", "paused", "expired"]),
  attempts: z.number().int(),
  last_status: z
    .number()
    .int()
    .nullable()
    .describe("HTTP status of the last attempt; null when no answer was received"),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable().describe("When the next attempt is due (pending or paused), else null"),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  payload: z.unknown().describe("The JSON body sent to the receiver"),
});

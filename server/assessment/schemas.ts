// zod contracts of POST /assess: the request of DESIGN.md and the result. Everything checkable without I/O is
// checked here, so a bad request is 400 before any unit is reserved.
import { z } from "zod";
import { ipAddress } from "../net/schemas";
import { parseAddress } from "../email/syntax";
import { deviceSignalsSchema } from "../device/schemas";
import { privacySnakeSchema } from "../ip/privacy-schema";
import { ASSESSED_EVENTS, DECISIONS, RISK_LEVELS } from "../scoring/score";
export { ASSESSED_EVENTS, DECISIONS, RISK_LEVELS };

const email = z
  .string()
  .trim()
  .min(3)
  .max(320)
  .superRefine((s, ctx) => {
    const p = parseAddress(s);
    if (!p.valid) ctx.addIssue({ code: "custom", message: `email is not a valid address: ${p.reason}` });
  });

const metadataValue = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);

export const assessRequestSchema = z.object({
  event: z.enum(ASSESSED_EVENTS).describe("What the user is doing: signup, login, checkout, form or api"),
  ip: ipAddress.describe("The end user's IP address (IPv4 or IPv6), not your server's"),
  email: email.optional().describe("The user's email address; syntax is validated (400 when invalid)"),
  user_agent: z.string().max(1024).optional().describe("The end user's User-Agent header"),
  device_id: z.string().trim().min(1).max(256).optional().describe("A stable device identifier from your client"),
  device: deviceSignalsSchema
    .optional()
    .describe(
      "Browser signals from /device.js (as POST /device/check takes them): automation, consistency and per-device velocity move the score",
    ),
  user_id: z.string().trim().min(1).max(256).optional().describe("Your identifier of the account"),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ().-]{4,32}$/, "phone must be digits with an optional leading +")
    .optional(),
  billing_country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, "billing_country must be an ISO 3166-1 alpha-2 code")
    .transform((s) => s.toUpperCase())
    .optional(),
  amount: z.number().finite().min(0).max(1e12).optional().describe("Transaction amount in major units of `currency`"),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, "currency must be an ISO 4217 code")
    .transform((s) => s.toUpperCase())
    .optional(),
  metadata: z
    .record(z.string().max(64), metadataValue)
    .refine((m) => Object.keys(m).length <= 50, "metadata holds at most 50 keys")
    .optional()
    .describe("Up to 50 flat key/value pairs for your own correlation; accepted but neither scored nor stored"),
});

export type AssessRequest = z.output<typeof assessRequestSchema>;

export const signalSchema = z.object({
  code: z.string(),
  weight: z
    .number()
    .int()
    .describe("Points this signal added to the score, from the weight set named by the result's `weights`"),
  reason: z.string().describe("What was found and what it means"),
  evidence: z.array(z.string()).describe("Names of the sources behind the signal"),
});

const sourceSchema = z.object({
  name: z.string(),
  origin: z.string().describe("shipped, refreshed, embedded, dns or workspace"),
  fetched_at: z.string().nullable().describe("When the data was fetched or built; null when never filled"),
});

export const assessResultSchema = z.object({
  request_id: z.string(),
  event: z.enum(ASSESSED_EVENTS),
  score: z.number().int().min(0).max(100),
  risk_level: z.enum(RISK_LEVELS),
  decision: z.enum(DECISIONS),
  decided_by: z.enum(["score", "rule"]).describe("Whether the score's decision stood or a matching rule overrode it"),
  weights: z
    .enum(["default", "learned"])
    .describe(
      "The signal weights the score used: the default table, or the weights learned from this workspace's outcome labels (GET /weights)",
    ),
  signals: z.array(signalSchema),
  rules: z
    .array(z.object({ id: z.string(), name: z.string(), action: z.enum(DECISIONS) }))
    .describe("Every enabled active rule that matched, in evaluation order; the first decides"),
  shadow_rules: z
    .array(z.object({ id: z.string(), name: z.string(), action: z.enum(DECISIONS) }))
    .describe(
      "Every enabled shadow rule that matched, in evaluation order, with the action it would have taken; never changes the decision",
    ),
  rule_errors: z
    .array(z.object({ id: z.string(), name: z.string(), message: z.string() }))
    .describe(
      "Rules that could not be evaluated for this assessment and were skipped (e.g. a division by zero), with why",
    ),
  ip: z.object({
    address: z.string(),
    scope: z.string(),
    country: z.string().nullable(),
    asn: z.number().int().nullable(),
    network_type: z
      .string()
      .describe("anonymizer, service, hosting, residential or unknown (as `network.type` on /ip/{ip})"),
    tor_exit: z.boolean().nullable(),
    hosting: z.boolean().describe("A cloud, hosting, platform or CDN network"),
    privacy: privacySnakeSchema,
  }),
  email: z
    .object({
      address: z.string(),
      domain: z.string(),
      disposable: z.boolean(),
      free_provider: z.boolean(),
      role_account: z.boolean(),
      mx: z.enum(["present", "null_mx", "implicit", "absent", "domain_not_found", "unavailable", "not_checked"]),
    })
    .nullable(),
  device: z
    .object({
      device_id: z.string(),
      verdict: z.enum(["automated", "suspicious", "human"]),
      risk_score: z.number().int(),
    })
    .nullable()
    .describe("The diagnosis of the `device` object (null without one); its signals are among `signals`"),
  sources: z.array(sourceSchema),
  checked_at: z.string(),
});

export type AssessResult = z.infer<typeof assessResultSchema>;
export type Signal = z.infer<typeof signalSchema>;
export type SourceRef = z.infer<typeof sourceSchema>;
export type { Decision, RiskLevel } from "../scoring/score";

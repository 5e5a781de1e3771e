// The email risk object (/email/check) and the shared pieces of email answers.
import { z } from "zod";
import { dnsRecordSchema } from "../dns/schemas";
import { resolverSourceSchema } from "../dns/resolver-source";

export const feedSourceSchema = z.object({
  name: z.string(),
  license: z.string(),
  count: z.number().int(),
  fetchedAt: z.string().describe("When the list was fetched from its source"),
  origin: z.enum(["shipped", "refreshed"]),
});

export const scoreReasonSchema = z.object({
  code: z.string(),
  weight: z.number().int().describe("Points this signal added to the score"),
  message: z.string(),
});

export const emailCheckResultSchema = z.object({
  email: z.string().describe("The address as submitted (trimmed)"),
  syntax: z.object({
    valid: z.boolean(),
    reason: z.string().nullable().describe("Why the address is invalid; null when valid"),
    localPart: z.string().nullable(),
    domain: z.string().nullable().describe("Lower case, IDNs in punycode"),
  }),
  normalized: z
    .string()
    .nullable()
    .describe(
      "The canonical mailbox: lower case; Gmail dots, Proton dots, underscores and hyphens, +tags of providers that document them (Gmail, Outlook, iCloud, Fastmail, Proton, Yahoo's -keyword) removed; googlemail.com as gmail.com. Null when the syntax is invalid",
    ),
  normalizationRules: z.array(z.string()),
  subaddress: z
    .string()
    .nullable()
    .describe("The +tag (Yahoo: -keyword), when the provider delivers it to the same inbox"),
  subaddressed: z
    .boolean()
    .describe("The address carries a tag its provider delivers to the base mailbox (see `normalized`)"),
  disposable: z.boolean(),
  disposableMatch: z.string().nullable().describe("The listed disposable domain that matched (the domain or a parent)"),
  freeProvider: z.boolean(),
  roleAccount: z.boolean(),
  roleCategory: z.string().nullable(),
  mx: z
    .object({
      status: z.enum(["present", "null_mx", "implicit", "absent", "domain_not_found", "unavailable"]),
      acceptsMail: z.boolean().nullable(),
      nullMx: z.boolean(),
      records: z.array(dnsRecordSchema),
      reason: z.string(),
    })
    .nullable()
    .describe("Null when the syntax is invalid (no lookup is made)"),
  suggestion: z
    .string()
    .nullable()
    .describe("A likely intended address when the domain looks like a typo of a common one"),
  score: z.number().int().min(0).max(100).describe("Risk 0-100: 0 no risk signal, 100 unusable or abusive"),
  riskLevel: z.enum(["low", "medium", "high", "critical"]),
  reasons: z.array(scoreReasonSchema).describe("The signals that moved the score"),
  sources: z.object({ resolver: resolverSourceSchema.nullable(), feeds: z.array(feedSourceSchema) }),
  checkedAt: z.string(),
});

export type EmailCheckResult = z.infer<typeof emailCheckResultSchema>;
export type ScoreReason = z.infer<typeof scoreReasonSchema>;

export function riskLevel(score: number): "low" | "medium" | "high" | "critical" {
  return score < 25 ? "low" : score < 50 ? "medium" : score < 75 ? "high" : "critical";
}

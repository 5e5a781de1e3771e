// The SPF, DKIM and DMARC posture object of /email/security.
import { z } from "zod";
import { resolverSourceSchema } from "../../dns/resolver-source";

const status = z.enum(["pass", "warn", "fail", "unknown"]).describe("unknown: the DNS lookups for this check failed");
const policy = z.enum(["none", "quarantine", "reject"]);

export const emailSecurityResultSchema = z.object({
  domain: z.string(),
  overall: z.object({ status, reason: z.string() }),
  spf: z.object({
    status,
    reason: z.string(),
    record: z.string().nullable(),
    mechanisms: z.array(
      z.object({
        qualifier: z.enum(["+", "-", "~", "?"]).nullable(),
        mechanism: z.string(),
        value: z.string().nullable(),
      }),
    ),
    modifiers: z.array(z.object({ name: z.string(), value: z.string() })),
    allQualifier: z
      .enum(["+", "-", "~", "?"])
      .nullable()
      .describe("Qualifier of the final all (inherited through redirect=), null when absent"),
    allMeaning: z.string().nullable(),
    dnsLookups: z
      .number()
      .int()
      .describe(
        "DNS-querying terms (include, a, mx, ptr, exists, redirect) across the record and everything it includes",
      ),
    dnsLookupLimit: z.number().int(),
    voidLookups: z.number().int(),
    includes: z.array(
      z.object({
        domain: z.string(),
        via: z.enum(["include", "redirect"]),
        depth: z.number().int(),
        record: z.string().nullable(),
        lookups: z.number().int(),
        error: z.string().nullable(),
      }),
    ),
    errors: z.array(z.string()),
  }),
  dmarc: z.object({
    status,
    reason: z.string(),
    record: z.string().nullable(),
    recordName: z.string().nullable(),
    inherited: z.boolean().describe("The record comes from the organizational domain (RFC 7489 section 6.6.3)"),
    policy: policy.nullable(),
    subdomainPolicy: policy.nullable(),
    pct: z.number().int().nullable(),
    rua: z.array(z.string()),
    ruf: z.array(z.string()),
    adkim: z.enum(["r", "s"]).nullable(),
    aspf: z.enum(["r", "s"]).nullable(),
    tags: z.record(z.string(), z.string()),
    errors: z.array(z.string()),
  }),
  dkim: z.object({
    status,
    reason: z.string(),
    selectorsChecked: z.array(z.string()),
    keys: z.array(
      z.object({
        selector: z.string(),
        name: z.string(),
        record: z.string(),
        keyType: z.string(),
        keyBits: z.number().int().nullable(),
        revoked: z.boolean(),
        testing: z.boolean(),
        error: z.string().nullable(),
      }),
    ),
    failedSelectors: z.array(z.string()).describe("Selectors whose lookup got no answer from the resolvers"),
  }),
  sources: z.object({ resolver: resolverSourceSchema }),
  checkedAt: z.string(),
});

export type EmailSecurityResult = z.infer<typeof emailSecurityResultSchema>;

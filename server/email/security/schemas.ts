// The posture object of /email/security: SPF, DKIM and DMARC, and the mail transport parts (MTA-STS, TLS-RPT, DANE,
// BIMI) whose absence is only a warning.
import { z } from "zod";
import { resolverSourceSchema } from "../../dns/resolver-source";

const status = z.enum(["pass", "warn", "fail", "unknown"]).describe("unknown: the DNS lookups for this check failed");
const policy = z.enum(["none", "quarantine", "reject"]);
const present = z.boolean().describe("Whether the domain publishes this protection at all");
const transportStatus = status.describe(
  "pass: in place and consistent. warn: absent (optional hardening, with what to publish) or weaker than it could be. fail: published but misconfigured, so senders cannot use it. unknown: the DNS lookups failed. A warn never lowers `overall`; a fail does",
);

export const emailSecurityResultSchema = z.object({
  domain: z.string(),
  overall: z
    .object({ status, reason: z.string() })
    .describe(
      "The worst of SPF, DMARC and DKIM, and of any mail transport part (MTA-STS, TLS-RPT, DANE, BIMI) that fails; a transport part that is merely absent or weak (warn) does not lower it",
    ),
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
  mtaSts: z
    .object({
      status: transportStatus,
      reason: z.string(),
      present,
      record: z.string().nullable().describe("The v=STSv1 TXT record at _mta-sts.<domain>"),
      id: z.string().nullable().describe("The record's id=, which senders compare to refetch the policy"),
      policyUrl: z
        .string()
        .nullable()
        .describe("Where the policy was fetched (https://mta-sts.<domain>/.well-known/mta-sts.txt)"),
      mode: z.enum(["enforce", "testing", "none"]).nullable(),
      maxAge: z.number().int().nullable().describe("Seconds senders may cache the policy"),
      mxPatterns: z.array(z.string()).describe("The policy's mx: lines; *.example.com covers one label"),
      mxNotCovered: z
        .array(z.string())
        .describe("MX hosts no pattern covers: enforcing senders refuse to deliver there"),
      errors: z.array(z.string()),
    })
    .describe(
      "MTA-STS (RFC 8461): the TXT record and the policy fetched over verified HTTPS (no redirects, 64 KB at most, public hosts only), its mode and whether its mx patterns cover every MX host. fail when the record exists but the policy is unreachable, has a bad certificate, is invalid, or enforces without covering every MX",
    ),
  tlsRpt: z
    .object({
      status: transportStatus,
      reason: z.string(),
      present,
      record: z.string().nullable().describe("The v=TLSRPTv1 TXT record at _smtp._tls.<domain>"),
      rua: z.array(z.string()).describe("Where senders send TLS failure reports"),
      invalidRua: z.array(z.string()).describe("rua entries that are neither mailto: addresses nor https: URLs"),
    })
    .describe("SMTP TLS reporting (RFC 8460). fail when the record has no valid rua"),
  dane: z
    .object({
      status: transportStatus,
      reason: z.string(),
      present,
      dnssecValidated: z
        .boolean()
        .describe(
          "True when every TLSA answer came with the AD bit of a validating resolver. This service does not validate DNSSEC itself: without it, records are reported as unverifiable (warn)",
        ),
      hosts: z.array(
        z.object({
          host: z.string().describe("MX host"),
          name: z.string().describe("The TLSA name queried, _25._tcp.<mx>"),
          lookup: z.enum(["found", "none", "failed"]),
          dnssecValidated: z.boolean(),
          records: z.array(
            z.object({
              usage: z
                .number()
                .int()
                .describe("0 PKIX-TA, 1 PKIX-EE (both discouraged for SMTP), 2 DANE-TA, 3 DANE-EE"),
              selector: z.number().int().describe("0 whole certificate, 1 public key"),
              matchingType: z.number().int().describe("0 exact, 1 SHA-256, 2 SHA-512"),
              certificateHex: z.string(),
              problem: z.string().nullable(),
            }),
          ),
        }),
      ),
    })
    .describe(
      "DANE for SMTP (RFC 7672): TLSA records at _25._tcp.<mx> for up to 10 MX hosts. Absence is warn (optional hardening); fail for a malformed record",
    ),
  bimi: z
    .object({
      status: transportStatus,
      reason: z.string(),
      present,
      record: z.string().nullable().describe("The v=BIMI1 TXT record at default._bimi.<domain>"),
      logoUrl: z.string().nullable().describe("l=: the SVG logo, reported and never fetched"),
      authorityUrl: z.string().nullable().describe("a=: the mark certificate (VMC or CMC) evidence"),
      errors: z.array(z.string()),
    })
    .describe(
      "BIMI: absence is warn (optional); fail for a logo or evidence URL that is not https:; warn when DMARC is not at p=quarantine or p=reject with pct=100, since providers then ignore the logo",
    ),
  sources: z.object({ resolver: resolverSourceSchema }),
  checkedAt: z.string(),
});

export type EmailSecurityResult = z.infer<typeof emailSecurityResultSchema>;

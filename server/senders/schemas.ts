// The contract of sender slots: what an owner sends to add a sender, and what a sender looks like (also the
// body of {account_url}/api/account/senders). Field names follow the account routes' snake_case.
import { z } from "zod";

const selector = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?)*$/,
    "a DKIM selector is one or more DNS labels, e.g. s1",
  );

export const addSenderInput = z
  .object({
    domain: z.string().trim().max(253).optional().describe("A domain the workspace sends email from, e.g. example.com"),
    address: z.string().trim().max(254).optional().describe("Or one sending address, e.g. billing@example.com"),
    dkim_selectors: z.array(selector).max(10).default([]).describe('DKIM selectors to check daily, e.g. ["s1"]'),
  })
  .strict()
  .refine((v) => (v.domain === undefined) !== (v.address === undefined), {
    message: "send either domain or address, not both",
  });
export type AddSenderInput = z.output<typeof addSenderInput>;

export const senderIdInput = z.object({ id: z.string().min(1).max(64) });

const checkStatus = z
  .enum(["pass", "warn", "fail", "unknown"])
  .describe("unknown: the DNS lookups for this check failed");

// Mail transport parts: their absence (warn) never lowers `overall`, a misconfiguration (fail) does. Missing from a
// posture stored before they were checked, until the next daily check.
const transportPart = z.object({ status: checkStatus, reason: z.string() }).optional();

export const senderPostureSchema = z.object({
  overall: checkStatus,
  spf: z.object({ status: checkStatus, reason: z.string() }),
  dkim: z.object({
    status: checkStatus,
    reason: z.string(),
    selectors: z.array(z.string()).describe("Selectors checked"),
  }),
  dmarc: z.object({
    status: checkStatus,
    reason: z.string(),
    policy: z.enum(["none", "quarantine", "reject"]).nullable(),
  }),
  mta_sts: transportPart.describe("MTA-STS, as GET /v1/email/security judges it"),
  tls_rpt: transportPart.describe("SMTP TLS reporting (TLS-RPT)"),
  dane: transportPart.describe("DANE TLSA records of the MX hosts"),
  bimi: transportPart.describe("BIMI logo record"),
  blocklists: z.object({
    status: z
      .enum(["listed", "not_listed", "incomplete"])
      .describe("incomplete: no list lists it but some did not answer"),
    listed_on: z.array(z.string()),
    reason: z.string(),
  }),
  checked_at: z.string(),
});
export type SenderPosture = z.output<typeof senderPostureSchema>;

export const senderSchema = z.object({
  id: z.string(),
  kind: z.enum(["domain", "address"]),
  domain: z.string(),
  address: z.string().nullable(),
  dkim_selectors: z.array(z.string()),
  status: z.enum(["pending", "verified"]),
  verification: z.object({
    type: z.literal("TXT"),
    name: z.string().describe("Where to publish the record: _service-verification.<domain>"),
    value: z.string().describe("service-verification=<token>"),
  }),
  verified_at: z.string().nullable(),
  monitored: z
    .boolean()
    .describe("Checked daily: verified and within the plan's sender slots (the oldest senders keep the slots)"),
  not_monitored_reason: z.string().nullable(),
  posture: senderPostureSchema.nullable(),
  last_checked_at: z.string().nullable(),
  created_at: z.string(),
});
export type SenderView = z.output<typeof senderSchema>;

export const senderListSchema = z.object({
  items: z.array(senderSchema),
  slots: z.number().int().describe("Sender slots of the workspace's plans"),
  used: z.number().int(),
  plans_with_slots: z.array(z.string()).describe("Names of the plans that have sender slots"),
});
export type SenderList = z.output<typeof senderListSchema>;

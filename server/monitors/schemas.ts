// The wire shapes of monitors (/v1/monitors...), shared by the REST API, the dashboard and the docs.
import { z } from "zod";
import { DNS_RECORD_TYPES } from "../providers/dns";
import { ECOSYSTEMS } from "../vulnerabilities/versions/ecosystems";
import { CHECK_TYPES } from "./checks/types";
import { DKIM_SELECTOR } from "../email/security/selector";
import { INTERVALS, MAX_PACKAGES, repeatedDays, repeatedDaysText, TLS_EXPIRY_DAYS } from "./limits";

export const DEFAULT_TLS_EXPIRY_DAYS = [21, 7];
export { MAX_PACKAGES };

const checkObject = z
  .object({
    type: z.enum(CHECK_TYPES),
    record_types: z
      .array(
        z
          .string()
          .trim()
          .toUpperCase()
          .refine((t) => (DNS_RECORD_TYPES as readonly string[]).includes(t), {
            message: `must be one of ${DNS_RECORD_TYPES.join(", ")}`,
          }),
      )
      .min(1)
      .max(10)
      .optional()
      .describe(
        "dns only: the record types to watch (default A, AAAA, MX, NS); the check costs one unit per run whatever their number",
      ),
    selectors: z
      .array(z.string().trim().toLowerCase().regex(DKIM_SELECTOR, "not a DKIM selector"))
      .max(10)
      .optional()
      .describe("email_security only: DKIM selectors to check besides the common ones"),
    packages: z
      .array(
        z
          .object({
            ecosystem: z.enum(ECOSYSTEMS),
            name: z.string().trim().min(1).max(214),
            version: z.string().trim().min(1).max(256),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_PACKAGES)
      .optional()
      .describe(
        `packages only (required there): 1 to ${MAX_PACKAGES} {ecosystem, name, version}; the check costs one unit per run whatever their number`,
      ),
  })
  .strict()
  .superRefine((c, ctx) => {
    const misplaced = (field: string, owner: string) =>
      ctx.addIssue({ code: "custom", path: [field], message: `${field} belongs to the ${owner} check only` });
    if (c.record_types && c.type !== "dns") misplaced("record_types", "dns");
    if (c.selectors && c.type !== "email_security") misplaced("selectors", "email_security");
    if (c.packages && c.type !== "packages") misplaced("packages", "packages");
    if (c.type === "packages" && !c.packages)
      ctx.addIssue({ code: "custom", path: ["packages"], message: "the packages check needs `packages`" });
  });

export type MonitorCheck = z.output<typeof checkObject>;

const checks = z
  .array(z.union([z.enum(CHECK_TYPES).transform((type) => ({ type })), checkObject]))
  .min(1)
  .max(CHECK_TYPES.length)
  .refine((cs) => new Set(cs.map((c) => c.type)).size === cs.length, { message: "each check type at most once" })
  .refine((cs) => cs.every((c) => c.type !== "packages" || "packages" in c), {
    message: 'the packages check needs its list: { "type": "packages", "packages": [{ ecosystem, name, version }] }',
  })
  .describe(
    `The checks to run: names (${CHECK_TYPES.join(", ")}) or objects { type, ...options } (record_types for dns, selectors for email_security, packages for packages)`,
  );

const thresholds = z
  .object({
    tls_expiry_days: z
      .array(z.number().int().min(TLS_EXPIRY_DAYS.min).max(TLS_EXPIRY_DAYS.max))
      .min(1)
      .max(TLS_EXPIRY_DAYS.count)
      .superRefine((days, ctx) => {
        const repeated = repeatedDays(days);
        if (repeated.length) ctx.addIssue({ code: "custom", message: repeatedDaysText(repeated) });
      })
      .optional()
      .describe(
        "Alert when the certificate expires within each of these many days (default [21, 7], each at most once); the smallest is critical",
      ),
  })
  .strict()
  .describe("Thresholds of the checks");

const name = z.string().trim().min(1).max(100).nullable().optional().describe("A label for people, 1..100 characters");
const target = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .describe(
    "A host name, domain, IP address (optionally with :port) or an http(s) URL, on the public internet. An IPv4 address is written as a dotted quad (`8.8.8.8`): other spellings a URL parser reads as one (`134744072`, `0x08080808`, `1.1`, `010.8.8.8`) are 400 INVALID_REQUEST, never stored as the address they spell. A monitor whose only check is `packages` looks at nothing of its target, which may then also be a label for the project the packages belong to (1 to 200 letters, digits and . _ @ / : + # ~ -, as in `github.com/acme/shop`), stored exactly as typed, never resolved or connected to",
  );
const interval = z.enum(INTERVALS).describe("How often the checks run: 1h, 6h, 12h, 24h or 7d (plan-bounded)");

const emailAlerts = z
  .object({
    enabled: z.boolean().default(true).describe("Send this monitor's alerts by email (default true)"),
    recipients: z
      .union([z.literal("owners"), z.array(z.email().trim().toLowerCase().max(320)).min(1).max(50)])
      .default("owners")
      .describe(
        "`owners` (the default: the workspace's owners) or a list of the workspace's members' emails; an address that is not a member is 400",
      ),
  })
  .strict()
  .describe("Email alerts of this monitor (sent only when the service has SERVICE_SMTP_URL)");

export const monitorIdSchema = z.string().trim().min(1).max(64).describe("Monitor id (`mon_…`)");

export const monitorCreateSchema = z.object({
  name,
  target,
  checks,
  interval: interval.default("24h"),
  thresholds: thresholds.optional(),
  email_alerts: emailAlerts.optional(),
});

export const monitorUpdateSchema = z
  .object({
    id: monitorIdSchema,
    name,
    target: target.optional(),
    checks: checks.optional(),
    interval: interval.optional(),
    thresholds: thresholds.optional(),
    email_alerts: emailAlerts.optional(),
  })
  .refine((v) => Object.keys(v).some((k) => k !== "id" && (v as Record<string, unknown>)[k] !== undefined), {
    message: "send at least one of name, target, checks, interval, thresholds, email_alerts",
  });

const checkRecord = z.object({
  type: z.enum(CHECK_TYPES),
  record_types: z.array(z.string()).optional(),
  selectors: z.array(z.string()).optional(),
  packages: z.array(z.object({ ecosystem: z.string(), name: z.string(), version: z.string() })).optional(),
});

const severity = z.enum(["ok", "warning", "critical"]);

export const checkResultSchema = z.object({
  severity: severity.nullable().describe("null when the check could not be made this run"),
  state: z.record(z.string(), z.unknown()).nullable().describe("The normalised facts compared between runs"),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  units: z.number().int(),
});

export const monitorRecordSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  target: z.string(),
  checks: z.array(checkRecord),
  interval: z.enum(INTERVALS),
  thresholds: z.object({ tls_expiry_days: z.array(z.number().int()) }),
  status: z
    .enum(["active", "paused"])
    .describe("paused: beyond the plan's monitor limit after a downgrade; it does not run"),
  units_per_run: z
    .number()
    .int()
    .describe(
      "Lookup units one run reserves: one per check, whatever its options; a project monitor's, one per package version of its project's latest default-ref scan",
    ),
  next_run_at: z.string().nullable().describe("ISO 8601; null while paused"),
  last_run_at: z.string().nullable(),
  states: z
    .record(z.string(), z.object({ severity, state: z.record(z.string(), z.unknown()) }))
    .describe("The latest state of each check"),
  url: z.string().describe("The monitor's page in the dashboard"),
  email_alerts: z.object({
    available: z
      .boolean()
      .describe("false when the service has no SMTP server configured (SERVICE_SMTP_URL): no email is sent"),
    enabled: z.boolean(),
    recipients: z.union([z.literal("owners"), z.array(z.string())]),
    unsubscribed: z
      .array(z.string())
      .describe("Who followed this monitor's unsubscribe link: they get none of its emails"),
  }),
  created_at: z.string(),
  updated_at: z.string(),
});

export const unsubscribeInputSchema = z.object({
  // Not trimmed: only the link's exact text is a token (a space before or after it is another spelling, 400).
  token: z.string().min(1).max(1000).describe("The token of the email's unsubscribe link"),
});
export const unsubscribeOneClickInputSchema = unsubscribeInputSchema.extend({
  one_click: z.string().max(1000).optional().describe("The RFC 8058 body, `List-Unsubscribe=One-Click`"),
});
export const unsubscribeOutputSchema = z.object({
  monitor_id: z.string(),
  email: z.string(),
  unsubscribed: z.literal(true),
});

export const runRecordSchema = z.object({
  id: z.string(),
  monitor_id: z.string(),
  status: z.enum(["completed", "skipped"]),
  units: z.number().int().describe("Units charged by this run"),
  results: z.record(z.string(), checkResultSchema).nullable().describe("Per check; null for a skipped run"),
  reason: z.string().nullable().describe("Why a run was skipped"),
  alerts: z.array(z.string()).describe("Ids of the alerts this run raised"),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});

export const alertRecordSchema = z.object({
  id: z.string(),
  monitor_id: z.string(),
  type: z.enum(["monitor.alert", "monitor.resolved", "monitor.skipped"]),
  check: z.string().describe("The check, or `run` for a skipped run"),
  severity: z.enum(["info", "warning", "critical"]),
  before: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      "The check's state before the change (null on the first run, and on a project check's alert of a new finding); for a check_failing alert, the state it keeps",
    ),
  after: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'The check\'s state after the change; `{ "check_failing": true, "reason", "code", "since", "failed_runs" }` when the check could not run several runs in a row, `{ "check_failing": false }` when that resolved',
    ),
  reminder: z.boolean().describe("A daily reminder of an alert that still holds"),
  open: z.boolean().describe("The condition still holds (reminded daily, resolved when it clears)"),
  run_id: z.string().nullable(),
  created_at: z.string(),
});

const page = {
  limit: z.coerce.number().int().min(1).max(200).default(50).describe("Page size, 1 to 200 (default 50)"),
  cursor: z.string().max(300).optional().describe("The previous page's next_cursor"),
};
export const monitorListInputSchema = z.object(page);
export const monitorTimelineInputSchema = z.object({ id: monitorIdSchema, ...page });
export const monitorPageSchema = z.object({ items: z.array(monitorRecordSchema), next_cursor: z.string().nullable() });
export const runPageSchema = z.object({ items: z.array(runRecordSchema), next_cursor: z.string().nullable() });
export const alertPageSchema = z.object({ items: z.array(alertRecordSchema), next_cursor: z.string().nullable() });
export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

// The rule condition language: a list of `{ field, op, value }` tests that must all hold. Each field has a kind,
// and the kind decides which operators and values are allowed, so a stored rule can always be evaluated.
import { z } from "zod";
import { formatCidr, parseCidr } from "../net/ip-parse";
import { parseIpStrict } from "../net/ip";

type Kind = "string" | "country" | "ip" | "number" | "boolean";

/** Every field a rule can test, with what it means (shown in the OpenAPI description and the docs). */
export const CONDITION_FIELDS = {
  event: { kind: "string", doc: "the assessed event: signup, login, checkout, form or api" },
  ip: { kind: "ip", doc: "the request's IP address (use op `cidr` for ranges)" },
  country: { kind: "country", doc: "ISO 3166-1 alpha-2 country of the IP from the geolocation database" },
  billing_country: { kind: "country", doc: "billing_country of the request" },
  asn: { kind: "number", doc: "origin AS number of the IP" },
  email: { kind: "string", doc: "the email address (lower-cased)" },
  email_domain: { kind: "string", doc: "the email's domain (lower-cased)" },
  disposable_email: { kind: "boolean", doc: "the email's domain is a disposable provider" },
  free_email: { kind: "boolean", doc: "the email's domain is a free provider" },
  tor_exit: { kind: "boolean", doc: "the IP is a listed Tor exit relay" },
  hosting: { kind: "boolean", doc: "the IP belongs to a cloud, hosting or CDN network" },
  score: { kind: "number", doc: "the computed risk score 0-100" },
  amount: { kind: "number", doc: "amount of the request" },
  currency: { kind: "string", doc: "currency of the request (upper-cased)" },
  user_agent: { kind: "string", doc: "the User-Agent string (compare with `contains`)" },
  device_id: { kind: "string", doc: "device_id of the request" },
  user_id: { kind: "string", doc: "user_id of the request" },
} as const satisfies Record<string, { kind: Kind; doc: string }>;

export type ConditionField = keyof typeof CONDITION_FIELDS;
export const CONDITION_OPS = ["eq", "neq", "in", "not_in", "gt", "gte", "lt", "lte", "contains", "cidr"] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

const OPS_BY_KIND: Record<Kind, readonly ConditionOp[]> = {
  string: ["eq", "neq", "in", "not_in", "contains"],
  country: ["eq", "neq", "in", "not_in"],
  ip: ["eq", "neq", "in", "not_in", "cidr"],
  number: ["eq", "neq", "in", "not_in", "gt", "gte", "lt", "lte"],
  boolean: ["eq", "neq"],
};

export type ConditionValue = string | number | boolean | (string | number)[];
export interface Condition {
  field: ConditionField;
  op: ConditionOp;
  value: ConditionValue;
}

export const MAX_CONDITIONS = 20;
const MAX_LIST = 500;

const scalarOk: Record<Kind, (v: unknown) => string | null> = {
  string: (v) => (typeof v === "string" && v.length >= 1 && v.length <= 512 ? null : "a string of 1 to 512 characters"),
  country: (v) => (typeof v === "string" && /^[A-Za-z]{2}$/.test(v) ? null : "a two-letter ISO 3166-1 country code"),
  ip: (v) => (typeof v === "string" && parseIpStrict(v) ? null : "an IPv4 or IPv6 address"),
  number: (v) => (typeof v === "number" && Number.isFinite(v) ? null : "a number"),
  boolean: (v) => (typeof v === "boolean" ? null : "true or false"),
};

const cidrOk = (v: unknown) => typeof v === "string" && v.includes("/") && parseCidr(v) !== null;

/** Why a condition cannot be evaluated, or null when it is well-formed. */
export function conditionProblem(c: { field: string; op: string; value: unknown }): string | null {
  const def = (CONDITION_FIELDS as Record<string, { kind: Kind }>)[c.field];
  if (!def) return `unknown field "${c.field}" (one of ${Object.keys(CONDITION_FIELDS).join(", ")})`;
  if (!OPS_BY_KIND[def.kind].includes(c.op as ConditionOp)) return `op "${c.op}" does not apply to ${c.field} (one of ${OPS_BY_KIND[def.kind].join(", ")})`;
  if (c.op === "cidr") {
    const list = Array.isArray(c.value) ? c.value : [c.value];
    if (list.length < 1 || list.length > MAX_LIST || !list.every(cidrOk)) return `${c.field} cidr needs a CIDR such as "203.0.113.0/24", or a list of 1 to ${MAX_LIST}`;
    return null;
  }
  if (c.op === "in" || c.op === "not_in") {
    const check = scalarOk[def.kind];
    if (!Array.isArray(c.value) || c.value.length < 1 || c.value.length > MAX_LIST) return `${c.field} ${c.op} needs a list of 1 to ${MAX_LIST} values`;
    const bad = c.value.map(check).find((p) => p !== null);
    return bad ? `each value of ${c.field} ${c.op} must be ${bad}` : null;
  }
  const p = scalarOk[def.kind](c.value);
  return p ? `${c.field} ${c.op} needs ${p}` : null;
}

const conditionSchema = z
  .object({
    field: z.enum(Object.keys(CONDITION_FIELDS) as [ConditionField, ...ConditionField[]]),
    op: z.enum(CONDITION_OPS),
    value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]),
  })
  .superRefine((c, ctx) => {
    const problem = conditionProblem(c);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  // A range is saved in the canonical form the evaluation reads (" 203.0.113.5/24" -> "203.0.113.0/24").
  .transform((c) => (c.op === "cidr" ? { ...c, value: canonicalCidrs(c.value) } : c));

function canonicalCidrs(value: string | number | boolean | (string | number)[]): string | string[] {
  const one = (v: unknown) => formatCidr(parseCidr(String(v))!);
  return Array.isArray(value) ? value.map(one) : one(value);
}

export const conditionsSchema = z
  .array(conditionSchema)
  .min(1)
  .max(MAX_CONDITIONS)
  .describe(`1 to ${MAX_CONDITIONS} conditions; all must hold for the rule to match`);

/** One line per field for descriptions: `country` (country: eq, neq, in, not_in): ISO ... */
export function conditionLanguageDoc(): string {
  return Object.entries(CONDITION_FIELDS)
    .map(([f, d]) => `\`${f}\` (${OPS_BY_KIND[d.kind as Kind].join(", ")}): ${d.doc}`)
    .join("; ");
}

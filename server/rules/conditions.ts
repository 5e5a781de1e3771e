// The rule condition language: a list of `{ field, op, value }` tests that must all hold. Each field has a kind,
// and the kind decides which operators and values are allowed, so a stored rule can always be evaluated.
import { z } from "zod";
import { countryCodeOf } from "../countries";
import { formatCidr, parseCidr, unmappedAddress } from "../net/ip-parse";
import { parseIpStrict } from "../net/ip";
import { FACTS, type FactName } from "./facts";

type Kind = "string" | "country" | "ip" | "number" | "boolean";

/**
 * Every field a condition can test: the fact it reads (the one fact table, ./facts.ts, which also gives its
 * meaning) and its kind, which decides the operators and values allowed.
 */
export const CONDITION_FIELDS = {
  event: { kind: "string", fact: "event" },
  ip: { kind: "ip", fact: "ip.address" },
  country: { kind: "country", fact: "ip.country" },
  billing_country: { kind: "country", fact: "billing_country" },
  asn: { kind: "number", fact: "ip.asn" },
  email: { kind: "string", fact: "email.address" },
  email_domain: { kind: "string", fact: "email.domain" },
  disposable_email: { kind: "boolean", fact: "email.disposable" },
  free_email: { kind: "boolean", fact: "email.free_provider" },
  tor_exit: { kind: "boolean", fact: "ip.tor_exit" },
  hosting: { kind: "boolean", fact: "ip.hosting" },
  score: { kind: "number", fact: "score" },
  amount: { kind: "number", fact: "amount" },
  currency: { kind: "string", fact: "currency" },
  user_agent: { kind: "string", fact: "user_agent" },
  device_id: { kind: "string", fact: "device_id" },
  user_id: { kind: "string", fact: "user_id" },
} as const satisfies Record<string, { kind: Kind; fact: FactName }>;

export type ConditionField = keyof typeof CONDITION_FIELDS;
export const CONDITION_OPS = ["eq", "neq", "in", "not_in", "gt", "gte", "lt", "lte", "contains", "cidr"] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

export const OPS_BY_KIND: Record<Kind, readonly ConditionOp[]> = {
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

/**
 * What a rule's country value should be, or null when it is one: judged as /assess reads billing_country
 * (countryCodeOf), so a rule on XX or EU, which could never match a fact, is refused, and so is one on UK, which
 * /assess reads as GB (a rule is kept as written, so it is asked for as GB). Any case: the rule reads it in upper case.
 */
export function countryValueProblem(v: unknown): string | null {
  if (typeof v !== "string" || !/^[A-Za-z]{2}$/.test(v)) return "a two-letter ISO 3166-1 country code";
  const code = countryCodeOf(v);
  if (code === null) return `a two-letter ISO 3166-1 country code (${v} names no country)`;
  return code === v.toUpperCase() ? null : `a two-letter ISO 3166-1 country code (${v} is ${code} in ISO 3166-1)`;
}

const scalarOk: Record<Kind, (v: unknown) => string | null> = {
  string: (v) => (typeof v === "string" && v.length >= 1 && v.length <= 512 ? null : "a string of 1 to 512 characters"),
  country: countryValueProblem,
  ip: (v) => (typeof v === "string" && parseIpStrict(v) ? null : "an IPv4 or IPv6 address"),
  number: (v) => (typeof v === "number" && Number.isFinite(v) ? null : "a number"),
  boolean: (v) => (typeof v === "boolean" ? null : "true or false"),
};

const cidrOk = (v: unknown) => typeof v === "string" && v.includes("/") && parseCidr(v) !== null;

/** Why a condition cannot be evaluated, or null when it is well-formed. */
export function conditionProblem(raw: { field: string; op: string; value: unknown }): string | null {
  // Judged as it will be saved: surrounding white space is not part of a value.
  const trim = (v: unknown) => (typeof v === "string" ? v.trim() : v);
  const c = { ...raw, value: Array.isArray(raw.value) ? raw.value.map(trim) : trim(raw.value) };
  const def = (CONDITION_FIELDS as Record<string, { kind: Kind }>)[c.field];
  if (!def) return `unknown field "${c.field}" (one of ${Object.keys(CONDITION_FIELDS).join(", ")})`;
  if (!OPS_BY_KIND[def.kind].includes(c.op as ConditionOp))
    return `op "${c.op}" does not apply to ${c.field} (one of ${OPS_BY_KIND[def.kind].join(", ")})`;
  if (c.op === "cidr") {
    const list = Array.isArray(c.value) ? c.value : [c.value];
    if (list.length < 1 || list.length > MAX_LIST || !list.every(cidrOk))
      return `${c.field} cidr needs a CIDR such as "203.0.113.0/24", or a list of 1 to ${MAX_LIST}`;
    return null;
  }
  if (c.op === "in" || c.op === "not_in") {
    const check = scalarOk[def.kind];
    if (!Array.isArray(c.value) || c.value.length < 1 || c.value.length > MAX_LIST)
      return `${c.field} ${c.op} needs a list of 1 to ${MAX_LIST} values`;
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
  .strict()
  .superRefine((c, ctx) => {
    const problem = conditionProblem(c);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  // Saved in the canonical form the evaluation reads (" 203.0.113.5/24" -> "203.0.113.0/24", " us" -> "US").
  .transform((c) => normalizeCondition(c as Condition));

/**
 * One value as both saving and evaluation read it: trimmed, ranges and addresses in canonical form, country and
 * currency codes upper-case, other strings lower-case except the case-sensitive identifiers and the user agent.
 */
export function normalizeConditionValue(
  field: ConditionField,
  op: ConditionOp,
  v: string | number | boolean,
): string | number | boolean {
  if (typeof v !== "string") return v;
  const t = v.trim();
  if (op === "cidr") {
    const range = parseCidr(t);
    return range ? formatCidr(range) : t;
  }
  const kind = CONDITION_FIELDS[field].kind;
  if (kind === "country" || field === "currency") return t.toUpperCase();
  if (kind === "ip") return ruleAddress(t) ?? t;
  if (field === "user_agent" || field === "device_id" || field === "user_id")
    return op === "contains" ? t.toLowerCase() : t;
  return t.toLowerCase();
}

/**
 * An address as a rule compares it with ip.address: canonical text, and an IPv4-mapped address (::ffff:a.b.c.d) as
 * its IPv4 host, as the assessed address is read, so a rule written with either spelling matches a client reported
 * with either. Condition values are saved this way and expression literals compiled this way (./expression.ts).
 * Null when the text is not an address.
 */
export function ruleAddress(text: string): string | null {
  const address = parseIpStrict(text.trim())?.address;
  return address ? unmappedAddress(address) : null;
}

export function normalizeCondition(c: Condition): Condition {
  const one = (v: string | number | boolean) => normalizeConditionValue(c.field, c.op, v);
  return { ...c, value: Array.isArray(c.value) ? (c.value.map(one) as (string | number)[]) : one(c.value) };
}

export const conditionsSchema = z
  .array(conditionSchema)
  .min(1)
  .max(MAX_CONDITIONS)
  .describe(`1 to ${MAX_CONDITIONS} conditions; all must hold for the rule to match`);

/** One line per field for descriptions: `country` = `ip.country` (eq, neq, in, not_in): country of the IP ... */
export function conditionLanguageDoc(): string {
  return Object.entries(CONDITION_FIELDS)
    .map(([f, d]) => `\`${f}\` = \`${d.fact}\` (${OPS_BY_KIND[d.kind as Kind].join(", ")}): ${FACTS[d.fact].doc}`)
    .join("; ");
}

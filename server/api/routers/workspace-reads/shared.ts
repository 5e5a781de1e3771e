// What several procedures of the workspace-reads router share (schemas, helpers), or what other modules import from it.
import { z } from "zod";
import { EVENT_TYPES, eventTypePrefixes, unknownEventTypeReason } from "../../../events/types";
import { accountSubject } from "../../../assessment/account";
import type { Db } from "../../../db/client";
import { canonicalEmail } from "../../../email/canonical";
import { canonicalAddress } from "../../../net/ip-parse";
import { timestampSchema } from "../../../timestamps";
import { accountsOfPhone } from "../../../users/linked";

export const EVENT_QUERY_DOC =
  "`query` matches exactly on request ID, IP (any spelling of the address: IPv6 in upper case or uncompressed, IPv4-mapped), email (every spelling of its mailbox), domain, rule (its id or its name), event type or actor, and an assessment's `user_id` or `device_id`; a phone number in E.164 (+ and the country calling code, spaces allowed) finds the assessments of the accounts that gave it (each by its user_id, else its email address; for as long as those links are kept, at least 90 days), so an assessment with neither user_id nor email is not found by its phone number.";

export const eventQuery = z
  .string()
  .trim()
  .max(320)
  .optional()
  .describe(
    "Exact match on request ID, IP, email, domain, rule (id or name), event type, actor, an assessment's user_id or device_id, or a phone number in E.164 (the assessments of the accounts that gave it)",
  );

/** What GET /events and its CSV search `query` on besides its own text: its mailbox, and the accounts it names. */
export async function eventSearchTerms(db: Db, workspaceId: string, query: string | undefined) {
  if (!query) return { query, queryMailbox: null, queryAddress: null, queryRules: [], querySubjects: [] };
  const [phoneAccounts, rules] = await Promise.all([
    accountsOfPhone(db, { workspaceId, phone: query }),
    // A rule by its name too: events keep the id of the rule that decided.
    db.rule.findMany({ where: { workspaceId, name: query }, select: { id: true } }),
  ]);
  return {
    query,
    queryMailbox: canonicalEmail(query).normalized,
    // An address in any spelling (upper-case or uncompressed IPv6, IPv4-mapped): events keep its one form.
    queryAddress: canonicalAddress(query),
    queryRules: rules.map((r) => r.id),
    querySubjects: [accountSubject(query, null)!, ...phoneAccounts],
  };
}

export const eventType = z
  .string()
  .trim()
  .max(500)
  .regex(
    /^[A-Za-z0-9_.]+(\s*,\s*[A-Za-z0-9_.]+)*$/,
    "comma-separated event types, or prefixes ending in a dot (e.g. audit.)",
  )
  .superRefine((v, ctx) => {
    const unknown = v
      .split(",")
      .map((e) => e.trim())
      .filter((e) => unknownEventTypeReason(e) !== null);
    if (unknown.length)
      ctx.addIssue({
        code: "custom",
        message: `unknown event type${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; use ${EVENT_TYPES.join(", ")}, or a prefix of them ending in a dot (${eventTypePrefixes().join(", ")})`,
      });
  })
  .optional()
  .describe(
    "Comma-separated event types (exact), or prefixes ending in `.` (e.g. `audit.` for the audit trail, `audit.key.` for key changes, `link.` for protected-link activity)",
  );

export const since = timestampSchema
  .optional()
  .describe("Only events created at or after this time (ISO 8601, e.g. `2026-11-01` or `2026-11-01T12:00:00Z`)");

export const until = timestampSchema.optional().describe("Only events created before this time (ISO 8601)");

export const countMap = <K extends string>(keys: readonly [K, ...K[]]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<K, z.ZodNumber>);

export const int = (what: string) => z.number().int().describe(what);

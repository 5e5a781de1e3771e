// What several procedures of the workspace-reads router share (schemas, helpers), or what other modules import from it.
import { z } from "zod";
import { timestampSchema } from "../../../timestamps";

export const eventQuery = z
  .string()
  .trim()
  .max(320)
  .optional()
  .describe("Exact match on request ID, IP, email, domain, rule, event type or actor");

export const eventType = z
  .string()
  .trim()
  .max(500)
  .regex(
    /^[A-Za-z0-9_.]+(\s*,\s*[A-Za-z0-9_.]+)*$/,
    "comma-separated event types, or prefixes ending in a dot (e.g. audit.)",
  )
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

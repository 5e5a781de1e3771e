// What several procedures of the jobs router share (schemas, helpers), or what other modules import from it.
import { z } from "zod";
import { BULK_KIND_OR_AUTO, BULK_KINDS, KINDS } from "../../../bulk/kinds";
import { MAX_BULK_TARGETS } from "../../../bulk/jobs";
import { authenticated } from "../../trpc";

export const TAGS = ["Bulk jobs"];

/** Every job procedure needs the bulk entitlement (403 BULK_LOOKUPS_REQUIRED), checked before the input is read. */
export const bulkProcedure = authenticated.meta({
  requires: { bulk: "always", subject: "Bulk jobs need" },
});

/** Estimating and starting also need a member who may run lookups (within the plan's included members). */
export const runProcedure = authenticated.meta({
  requires: { bulk: "always", lookup: true, subject: "Bulk jobs need" },
});

export const KIND_LIST = BULK_KINDS.map((k) => `\`${k}\` (${KINDS[k].label})`).join(", ");

export const AUTO =
  "`auto` picks each target's kind from its shape: an IP address → `ip`, a CIDR range → `cidr`, `AS15169` → `asn`, a domain → `domain`, an email address → `email`, an http(s) URL → `host.status`, a CVE id → `cve`, a package URL (`pkg:npm/lodash@4.17.20`, `pkg:pypi/…`, `pkg:maven/group/artifact@v`, `pkg:golang/…`, `pkg:composer/…`) → `package`.";

export const jobInput = z.object({
  kind: z
    .enum(BULK_KIND_OR_AUTO)
    .default("auto")
    .describe(`The lookup every target gets, or \`auto\`. Kinds: ${KIND_LIST}.`),
  targets: z
    .array(z.string().max(2048))
    .min(1, "submit at least one target")
    .max(MAX_BULK_TARGETS, `a job holds at most ${MAX_BULK_TARGETS} targets`)
    .describe(`1 to ${MAX_BULK_TARGETS} targets, one lookup each`),
});

export const itemSchema = z.object({
  position: z.number().int().describe("The target's line number, from 1"),
  target: z.string(),
  kind: z.enum(BULK_KINDS),
  status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
  units: z.number().int().describe("The units reserved for the item when the job was created"),
  refunded: z
    .boolean()
    .describe(
      "True when any of the item's units went back: all of them when it was cancelled before it ran, refused before admission or not answered (its source unavailable), and for a CIDR range only those of the addresses no blocklist answered (its summary's `incomplete`); `units` stays what was reserved and `refunded_units` says how many went back",
    ),
  refunded_units: z
    .number()
    .int()
    .nullable()
    .describe(
      "How many of the item's units went back to the workspace (0 while it has given none back; the item was charged `units` minus this), as a lookup history entry's `summary.refunded_units` says; the job's `units.refunded` is their sum. Null only for an item of several units (a CIDR range) that gave back a part before this count was kept, whose share is not known",
    ),
  summary: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe("A few fields of the answer (e.g. risk for an IP, disposable for an email)"),
  result: z.unknown().describe("The full answer, as the lookup's own endpoint gives it"),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export const jobSchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.enum(["running", "completed", "cancelled"]),
  created_by: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  expires_at: z.string().describe("The job and its results are kept for the plan's lookup history window"),
  units: z.object({ reserved: z.number().int(), refunded: z.number().int(), charged: z.number().int() }),
  progress: z.object({
    total: z.number().int(),
    queued: z.number().int(),
    running: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    cancelled: z.number().int(),
    done: z.number().int(),
    percent: z.number().int(),
    elapsed_ms: z.number().int(),
    estimated_remaining_ms: z.number().int().nullable(),
  }),
  kinds: z.record(z.string(), z.number().int()).describe("Items per kind"),
  items: z.array(itemSchema).optional(),
  next_cursor: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe("Pass as `cursor` for the next page of items; null on the last page"),
});

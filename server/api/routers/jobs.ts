// Bulk jobs, for the dashboard and /v1 alike: estimate, create (one atomic reservation), read with progress and
// paged results, list, cancel with refund, CSV export. Items run in the background (server/bulk/worker.ts).
import { z } from "zod";
import { BULK_KIND_OR_AUTO, BULK_KINDS, KINDS } from "../../bulk/kinds";
import {
  cancelJobOrThrow,
  createJob,
  getJobOrThrow,
  jobCsvOrThrow,
  listJobs,
  MAX_BULK_TARGETS,
  planJob,
} from "../../bulk/jobs";
import { wakeBulkWorker } from "../../bulk/worker";
import { quotaHeaders, readUsage } from "../../quota/reserve";
import { authenticated, router } from "../trpc";

const TAGS = ["Bulk jobs"];
/** Every job procedure needs the bulk entitlement (403 BULK_LOOKUPS_REQUIRED), checked before the input is read. */
const bulkProcedure = authenticated.meta({ requires: { bulk: () => true, subject: "Bulk jobs need" } });
/** Estimating and starting also need a member who may run lookups (within the plan's included members). */
const runProcedure = authenticated.meta({ requires: { bulk: () => true, lookup: true, subject: "Bulk jobs need" } });

const KIND_LIST = BULK_KINDS.map((k) => `\`${k}\` (${KINDS[k].label})`).join(", ");
const AUTO =
  "`auto` picks each target's kind from its shape: an IP address → `ip`, a CIDR range → `cidr`, `AS15169` → `asn`, a domain → `domain`, an email address → `email`, an http(s) URL → `host.status`, a CVE id → `cve`, a package URL (`pkg:npm/lodash@4.17.20`, `pkg:pypi/…`, `pkg:maven/group/artifact@v`, `pkg:golang/…`, `pkg:composer/…`) → `package`.";

const jobInput = z.object({
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

const lineSchema = z.object({
  line: z.number().int(),
  target: z.string(),
  kind: z.enum(BULK_KINDS).nullable(),
  units: z.number().int(),
  problem: z.string().nullable().describe("Why this line cannot run, or null"),
});

const itemSchema = z.object({
  position: z.number().int().describe("The target's line number, from 1"),
  target: z.string(),
  kind: z.enum(BULK_KINDS),
  status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
  units: z.number().int(),
  refunded: z
    .boolean()
    .describe("True when the item's units went back (cancelled before it ran, or refused before admission)"),
  summary: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe("A few fields of the answer (e.g. risk for an IP, disposable for an email)"),
  result: z.unknown().describe("The full answer, as the lookup's own endpoint gives it"),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

const jobSchema = z.object({
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

export const jobsRouter = router({
  estimate: runProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/jobs/estimate",
        tags: TAGS,
        summary: "Estimate a bulk job",
        description: `What POST /jobs would do with the same body, without starting or charging anything: each line's kind, units and any problem (by line number), the total units and whether they fit in what is left of this month's allowance. ${AUTO}`,
      },
    })
    .input(jobInput)
    .output(
      z.object({
        lines: z.array(lineSchema),
        units: z.number().int(),
        remaining: z.number().int(),
        fits: z.boolean(),
        problems: z.number().int(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const p = ctx.principal;
      const plan = await planJob(p.entitlements, input.kind, input.targets);
      const usage = await readUsage(ctx.db, p.workspaceId, p.entitlements.monthlyUnits);
      return {
        lines: plan.lines.map(({ line, target, kind, units, problem }) => ({ line, target, kind, units, problem })),
        units: plan.units,
        remaining: usage.remaining,
        fits: plan.units <= usage.remaining,
        problems: plan.problems.length,
      };
    }),

  create: runProcedure
    .meta({
      errors: ["CAPABILITY_REQUIRED", "QUOTA_EXCEEDED"],
      accepted: "always",
      openapi: {
        method: "POST",
        path: "/jobs",
        tags: TAGS,
        summary: "Start a bulk job",
        description: `Starts a job of 1 to ${MAX_BULK_TARGETS} lookups and answers 202 with it. ${AUTO} Every line is checked first: an unreadable target gives 400 INVALID_REQUEST naming the lines, a kind outside the plan 403 CAPABILITY_REQUIRED; then the sum of the items' units (1 per lookup; a CIDR range by its sampled addresses) is reserved at once, or 402 QUOTA_EXCEEDED. Nothing is charged when the job is refused. Items then run in the background through the same lookups as their own endpoints; an item whose upstream fails is recorded as failed and its unit counts, an item refused before it ran (e.g. a host that resolves to a private address) gets its unit back. Follow progress with GET /jobs/{id}. The response carries the quota headers.`,
      },
      charges: "the sum of the items' lookup units, reserved at once when the job starts",
    })
    .input(jobInput)
    .output(jobSchema)
    .mutation(async ({ ctx, input }) => {
      const { job, quota } = await createJob(ctx.db, {
        principal: ctx.principal,
        requestId: ctx.requestId,
        kind: input.kind,
        targets: input.targets,
      });
      for (const [k, v] of Object.entries(quotaHeaders(quota))) ctx.resHeaders.set(k, v);
      ctx.resHeaders.set("Cache-Control", "private, no-store");
      ctx.resHeaders.set("x-service-status", "202");
      wakeBulkWorker();
      return job;
    }),

  list: bulkProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/jobs",
        tags: TAGS,
        summary: "List bulk jobs",
        description:
          "This workspace's jobs, newest first, with creator, time, kind, counts and units (without items). Paged with `cursor` (the `next_cursor` of the previous page). Jobs are kept for the plan's lookup history window.",
      },
    })
    .input(
      z.object({
        cursor: z.string().max(64).optional().describe("`next_cursor` of the previous page"),
        limit: z.coerce.number().int().min(1).max(100).default(20).describe("Jobs per page, 1..100 (default 20)"),
      }),
    )
    .output(z.object({ items: z.array(jobSchema), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => listJobs(ctx.db, ctx.principal.workspaceId, input)),

  get: bulkProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "GET",
        path: "/jobs/{id}",
        tags: TAGS,
        summary: "Read a bulk job",
        description:
          "A job's progress (done, failed, remaining, elapsed, estimate), units (reserved, refunded, charged) and its items in line order with each summary and full result, paged with `cursor` and `limit` and filtered by `status` and `kind`. 404 NOT_FOUND for an unknown id or another workspace's job.",
      },
    })
    .input(
      z.object({
        id: z.string().min(1).max(64),
        cursor: z.coerce
          .number()
          .int()
          .min(0)
          .optional()
          .describe("`next_cursor` of the previous page (a line number)"),
        limit: z.coerce
          .number()
          .int()
          .min(0)
          .max(100)
          .default(100)
          .describe("Items per page, 0..100 (default 100; 0 for progress only)"),
        status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]).optional(),
        kind: z.enum(BULK_KINDS).optional(),
      }),
    )
    .output(jobSchema)
    .query(({ ctx, input }) => getJobOrThrow(ctx.db, ctx.principal.workspaceId, input.id, input)),

  resultsCsv: bulkProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "GET",
        path: "/jobs/{id}/results.csv",
        tags: TAGS,
        summary: "A bulk job's results as CSV",
        description:
          "One row per item (media type text/csv): position, target, kind, status, units, refunded, error_code, error_message, then the summary fields of the job's kinds. Cells a spreadsheet would read as a formula are prefixed with an apostrophe. 404 NOT_FOUND for another workspace's job.",
      },
      produces: "text/csv",
    })
    .input(z.object({ id: z.string().min(1).max(64) }))
    .output(z.string())
    .query(async ({ ctx, input }) => {
      const csv = await jobCsvOrThrow(ctx.db, ctx.principal.workspaceId, input.id);
      ctx.resHeaders.set("Content-Type", "text/csv; charset=utf-8");
      ctx.resHeaders.set("Content-Disposition", `attachment; filename="${input.id}.csv"`);
      return csv;
    }),

  cancel: bulkProcedure
    .meta({
      errors: ["NOT_FOUND", "CONFLICT"],
      openapi: {
        method: "POST",
        path: "/jobs/{id}/cancel",
        tags: TAGS,
        summary: "Cancel a bulk job",
        description:
          "Items not yet started are never run and their units go back to the workspace in one ledger row with the reason; items already running finish and count. Cancelling a job that has finished changes nothing. Answers the job. 404 NOT_FOUND for another workspace's job.",
      },
    })
    .input(z.object({ id: z.string().min(1).max(64) }))
    .output(jobSchema)
    .mutation(({ ctx, input }) =>
      cancelJobOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        id: input.id,
        requestId: ctx.requestId,
        principal: ctx.principal,
      }),
    ),
});

// POST /jobs: start a bulk job.
// The procedure, with its contract (meta, input, output) beside its work.
import { createJob, MAX_BULK_TARGETS } from "../../../bulk/jobs";
import { wakeBulkWorker } from "../../../bulk/worker";
import { quotaHeaders } from "../../../quota/reserve";
import { TAGS, runProcedure, AUTO, jobInput, jobSchema } from "./shared";

export const createProcedure = runProcedure
  .meta({
    errors: ["CAPABILITY_REQUIRED", "QUOTA_EXCEEDED"],
    accepted: "always",
    openapi: {
      method: "POST",
      path: "/jobs",
      tags: TAGS,
      summary: "Start a bulk job",
      description: `Starts a job of 1 to ${MAX_BULK_TARGETS} lookups and answers 202 with it. ${AUTO} Every line is checked first: an unreadable target gives 400 INVALID_REQUEST naming the lines, a kind outside the plan 403 CAPABILITY_REQUIRED; then the sum of the items' units (1 per lookup; a CIDR range by its sampled addresses) is reserved at once, or 402 QUOTA_EXCEEDED. Nothing is charged when the job is refused. Items then run in the background through the same lookups as their own endpoints; an item refused before it ran (e.g. a host that resolves to a private address) gets its units back, and so does an item that was not answered (its source unavailable: recorded as failed with that error) or the addresses of a CIDR range that no blocklist answered; a source's "not found" is an answer and counts. Follow progress with GET /jobs/{id}. The response carries the quota headers.`,
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
  });

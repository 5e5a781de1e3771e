// GET /jobs/{id}: read a bulk job.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { BULK_KINDS } from "../../../bulk/kinds";
import { getJobOrThrow } from "../../../bulk/jobs";
import { TAGS, bulkProcedure, jobSchema } from "./shared";

export const getProcedure = bulkProcedure
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
      cursor: z.coerce.number().int().min(0).optional().describe("`next_cursor` of the previous page (a line number)"),
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
  .query(({ ctx, input }) => getJobOrThrow(ctx.db, ctx.principal.workspaceId, input.id, input));

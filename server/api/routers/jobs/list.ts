// GET /jobs: list bulk jobs.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { listJobs } from "../../../bulk/jobs";
import { TAGS, bulkProcedure, jobSchema } from "./shared";

export const listProcedure = bulkProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/jobs",
      tags: TAGS,
      summary: "List bulk jobs",
      description:
        "This workspace's jobs, newest first, with creator, time, kind, counts and units (without items). Paged with `cursor` (the `next_cursor` of the previous page; one that names none of this workspace's jobs, such as one purged since, is 400 INVALID_REQUEST). Jobs are kept for the plan's lookup history window.",
    },
  })
  .input(
    z.object({
      cursor: z.string().max(64).optional().describe("`next_cursor` of the previous page"),
      limit: z.coerce.number().int().min(1).max(100).default(20).describe("Jobs per page, 1..100 (default 20)"),
    }),
  )
  .output(z.object({ items: z.array(jobSchema), next_cursor: z.string().nullable() }))
  .query(({ ctx, input }) => listJobs(ctx.db, ctx.principal.workspaceId, input));

// GET /jobs/{id}/results.csv: A bulk job's results as CSV.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { jobCsvOrThrow } from "../../../bulk/jobs";
import { TAGS, bulkProcedure } from "./shared";

export const resultsCsvProcedure = bulkProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/jobs/{id}/results.csv",
      tags: TAGS,
      summary: "A bulk job's results as CSV",
      description:
        "One row per item (media type text/csv): position, target, kind, status, units, refunded, refunded_units (empty when not known), error_code, error_message, then the summary fields of the job's kinds (one named like a column before it is headed summary_<name>, e.g. summary_status for a DNS or host status). Cells a spreadsheet would read as a formula are prefixed with an apostrophe. 404 NOT_FOUND for another workspace's job.",
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
  });

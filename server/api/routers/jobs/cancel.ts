// POST /jobs/{id}/cancel: cancel a bulk job.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { cancelJobOrThrow } from "../../../bulk/jobs";
import { TAGS, bulkProcedure, jobSchema } from "./shared";

export const cancelProcedure = bulkProcedure
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
  );

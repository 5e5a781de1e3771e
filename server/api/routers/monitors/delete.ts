// DELETE /monitors/{id}: delete a monitor.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { deleteMonitorOrThrow } from "../../../monitors/monitors";
import { deletedSchema, monitorIdSchema } from "../../../monitors/schemas";
import { monitorsProcedure, TAGS, change } from "./shared";

export const deleteProcedure = monitorsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "DELETE",
      path: "/monitors/{id}",
      tags: TAGS,
      summary: "Delete a monitor",
      description:
        "Deletes the monitor with its runs and alerts (their events stay in GET /v1/events), freeing its place in the plan's limit: a monitor a smaller plan paused takes it (the oldest first, `audit.monitor.resumed`). An audit event (`audit.monitor.deleted`). Another workspace's monitor is 404 NOT_FOUND.",
    },
  })
  .input(z.object({ id: monitorIdSchema }))
  .output(deletedSchema)
  .mutation(({ ctx, input }) => deleteMonitorOrThrow(ctx.db, { ...change(ctx), id: input.id }));

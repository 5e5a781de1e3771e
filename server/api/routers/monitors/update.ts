// PATCH /monitors/{id}: change a monitor.
// The procedure, with its contract (meta, input, output) beside its work.
import { updateMonitorOrThrow } from "../../../monitors/monitors";
import { monitorRecordSchema, monitorUpdateSchema } from "../../../monitors/schemas";
import { monitorsProcedure, TAGS, change } from "./shared";

export const updateProcedure = monitorsProcedure
  .meta({
    errors: ["NOT_FOUND", "TARGET_FORBIDDEN", "CONFLICT"],
    openapi: {
      method: "PATCH",
      path: "/monitors/{id}",
      tags: TAGS,
      summary: "Change a monitor",
      description:
        "Changes any of `name`, `target`, `checks`, `interval`, `thresholds`, `email_alerts` with the rules of POST /monitors (the same 400 and 403 answers, nothing written on a refusal). A new target or new checks start from a fresh baseline (the next run alerts only on what is bad); a new interval starts a new phase. An audit event (`audit.monitor.updated`) with before and after. Another workspace's monitor is 404 NOT_FOUND.",
    },
  })
  .input(monitorUpdateSchema)
  .output(monitorRecordSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateMonitorOrThrow(ctx.db, { ...change(ctx), id, changes });
  });

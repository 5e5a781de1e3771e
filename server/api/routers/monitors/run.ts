// POST /monitors/{id}/run: run a monitor now.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { findMonitorOrThrow } from "../../../monitors/monitors";
import { runMonitor } from "../../../monitors/run";
import { monitorIdSchema, runRecordSchema } from "../../../monitors/schemas";
import { getMonitorRunOrThrow } from "../../../monitors/timeline";
import { payerOf, quotaHeaders } from "../../../quota/reserve";
import { monitorsProcedure, TAGS } from "./shared";

export const runProcedure = monitorsProcedure
  .meta({
    errors: ["NOT_FOUND", "QUOTA_EXCEEDED", "CONFLICT"],
    openapi: {
      method: "POST",
      path: "/monitors/{id}/run",
      tags: TAGS,
      summary: "Run a monitor now",
      description:
        "Runs every check now, outside the schedule (which does not move), and answers with the run: its units, each check's state and severity (or its error), and the alerts it raised. It costs what a scheduled run costs, one unit per check whatever its options (a dns check of several record types or a packages check of several packages is one unit), reserved before it starts; when the allowance cannot pay, 402 QUOTA_EXCEEDED and nothing is run or recorded. A paused monitor is 409 CONFLICT. Another workspace's monitor is 404 NOT_FOUND.",
    },
  })
  .input(z.object({ id: monitorIdSchema }))
  .output(runRecordSchema)
  .mutation(async ({ ctx, input }) => {
    const monitor = await findMonitorOrThrow(ctx.db, ctx.principal.workspaceId, input.id);
    const { runId, quota } = await runMonitor(ctx.db, monitor.id, { manual: true, payer: payerOf(ctx.principal) });
    // It reserves units as a bulk job does, so its answer carries the quota headers as a job's does.
    if (quota) for (const [k, v] of Object.entries(quotaHeaders(quota))) ctx.resHeaders.set(k, v);
    return getMonitorRunOrThrow(ctx.db, ctx.principal.workspaceId, { id: monitor.id, runId });
  });

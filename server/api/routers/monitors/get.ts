// GET /monitors/{id}: read a monitor.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { getMonitorOrThrow } from "../../../monitors/monitors";
import { monitorIdSchema, monitorRecordSchema } from "../../../monitors/schemas";
import { monitorsProcedure, TAGS } from "./shared";

export const getProcedure = monitorsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/monitors/{id}",
      tags: TAGS,
      summary: "Read a monitor",
      description:
        "One monitor with its checks, interval, status, units per run, next and last run, the latest state of each check, and its email alerts (enabled, recipients, who unsubscribed, and `available: false` when the service has no SMTP server). Another workspace's monitor is 404 NOT_FOUND.",
    },
  })
  .input(z.object({ id: monitorIdSchema }))
  .output(monitorRecordSchema)
  .query(({ ctx, input }) => getMonitorOrThrow(ctx.db, ctx.principal.workspaceId, input.id));

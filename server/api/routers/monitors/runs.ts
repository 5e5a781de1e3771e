// GET /monitors/{id}/runs: a monitor's runs.
// The procedure, with its contract (meta, input, output) beside its work.
import { FAILING_AFTER_RUNS } from "../../../monitors/failing";
import { monitorTimelineInputSchema, runPageSchema } from "../../../monitors/schemas";
import { listMonitorRuns } from "../../../monitors/timeline";
import { monitorsProcedure, TAGS } from "./shared";

export const runsProcedure = monitorsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/monitors/{id}/runs",
      tags: TAGS,
      summary: "A monitor's runs",
      description: `The monitor's runs, newest first: \`completed\` with each check's state, severity and units (a check that failed has its error and keeps the previous state; ${FAILING_AFTER_RUNS} failed runs in a row raise a \`check_failing\` alert), or \`skipped\` with the reason (the allowance could not pay; nothing charged). Paginate with \`limit\` and \`cursor\` (the previous page's \`next_cursor\`; one that names none of this monitor's runs is 400 INVALID_REQUEST). Another workspace's monitor is 404 NOT_FOUND.`,
    },
  })
  .input(monitorTimelineInputSchema)
  .output(runPageSchema)
  .query(({ ctx, input }) => listMonitorRuns(ctx.db, ctx.principal.workspaceId, input));

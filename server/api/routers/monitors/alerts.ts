// GET /monitors/{id}/alerts: a monitor's alerts.
// The procedure, with its contract (meta, input, output) beside its work.
import { FAILING_AFTER_RUNS } from "../../../monitors/failing";
import { alertPageSchema, monitorTimelineInputSchema } from "../../../monitors/schemas";
import { listMonitorAlerts } from "../../../monitors/timeline";
import { monitorsProcedure, TAGS } from "./shared";

export const alertsProcedure = monitorsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/monitors/{id}/alerts",
      tags: TAGS,
      summary: "A monitor's alerts",
      description: `The monitor's alerts, newest first: \`monitor.alert\` (a change, with \`before\` and \`after\`; \`reminder: true\` for the daily reminder of one still open; \`after.check_failing: true\` for a check that could not run ${FAILING_AFTER_RUNS} times in a row), \`monitor.resolved\` (an open alert cleared) and \`monitor.skipped\` (a run the allowance could not pay; check \`run\`). \`open\` alerts are the conditions that still hold. Paginate with \`limit\` and \`cursor\` (the previous page's \`next_cursor\`; one that names none of this monitor's alerts is 400 INVALID_REQUEST). Another workspace's monitor is 404 NOT_FOUND.`,
    },
  })
  .input(monitorTimelineInputSchema)
  .output(alertPageSchema)
  .query(({ ctx, input }) => listMonitorAlerts(ctx.db, ctx.principal.workspaceId, input));

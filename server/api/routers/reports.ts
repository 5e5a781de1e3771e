// Saved fraud reports, for the dashboard (tRPC) and {account_url}/api/account/reports. No OpenAPI meta: these
// are account routes reached with a session, never with an API key under /v1.
import { listReports, saveReport } from "../../reports/reports";
import { listReportsInput, reportPageSchema, savedReportSchema, saveReportInput } from "../../reports/schemas";
import { meteredProcedure, router, workspaceProcedure } from "../trpc";

export const reportsRouter = router({
  /** Metered: the `full` capability, one unit (spec: Saved report creation, 1 unit). */
  create: meteredProcedure({ capability: "full", endpoint: "account.reports.create", input: saveReportInput })
    .meta({ freeText: ["report.**"] })
    .output(savedReportSchema)
    .mutation(({ ctx, input }) =>
      saveReport(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        userId: ctx.principal.kind === "member" ? ctx.principal.userId : null,
        historyDays: ctx.principal.entitlements.historyDays,
        input,
      }),
    ),

  /** Unmetered; expired reports are hidden, legacy reports without an expiry are shown. */
  list: workspaceProcedure
    .input(listReportsInput)
    .output(reportPageSchema)
    .query(({ ctx, input }) =>
      listReports(ctx.db, { workspaceId: ctx.principal.workspaceId, limit: input.limit, cursor: input.cursor }),
    ),
});

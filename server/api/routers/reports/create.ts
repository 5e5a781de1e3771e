// The reports router's create (dashboard only).
// The procedure, with its contract beside its work.
import { saveReport } from "../../../reports/reports";
import { savedReportSchema, saveReportInput } from "../../../reports/schemas";
import { meteredProcedure } from "../../trpc";

/** Metered: the `full` capability, one unit (spec: Saved report creation, 1 unit). */
export const createProcedure = meteredProcedure({
  capability: "full",
  endpoint: "account.reports.create",
  input: saveReportInput,
  // The history entry names the report (its title and id), never its content.
  history: (input, out: { id: string }) => ({ target: input.title, summary: { report_id: out.id } }),
})
  .meta({ freeText: ["report.**"] })
  .output(savedReportSchema)
  .mutation(({ ctx, input }) =>
    saveReport(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      userId: ctx.principal.kind === "member" ? ctx.principal.userId : null,
      historyDays: ctx.principal.entitlements.historyDays,
      input,
    }),
  );

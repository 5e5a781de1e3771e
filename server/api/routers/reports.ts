// Saved fraud reports, for the dashboard (tRPC) and {account_url}/api/account/reports. No OpenAPI meta: these
// are account routes reached with a session, never with an API key under /v1.
import { listReports, saveReport } from "../../reports/reports";
import { deleteReport, renameReport, type ReportEditor } from "../../reports/manage";
import {
  listReportsInput,
  renameReportInput,
  reportIdInput,
  reportPageSchema,
  savedReportSchema,
  saveReportInput,
} from "../../reports/schemas";
import { actorOf } from "../actor";
import type { Principal } from "../context";
import { AppError } from "../../errors";
import { meteredProcedure, router, workspaceProcedure } from "../trpc";

/** Only signed-in members change reports; the manage module decides between owners, authors and others. */
function editorOf(p: Principal): ReportEditor {
  if (p.kind !== "member") throw new AppError("FORBIDDEN", "API keys cannot change saved reports.");
  return { userId: p.userId, role: p.role };
}

export const reportsRouter = router({
  /** Metered: the `full` capability, one unit (spec: Saved report creation, 1 unit). */
  create: meteredProcedure({
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
    ),

  /** Unmetered; expired reports are hidden, legacy reports without an expiry are shown. */
  list: workspaceProcedure
    .input(listReportsInput)
    .output(reportPageSchema)
    .query(({ ctx, input }) =>
      listReports(ctx.db, { workspaceId: ctx.principal.workspaceId, limit: input.limit, cursor: input.cursor }),
    ),

  /** Unmetered; owners and the report's author; an audit event `audit.report.renamed`. */
  rename: workspaceProcedure.input(renameReportInput).mutation(({ ctx, input }) =>
    renameReport(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      id: input.id,
      title: input.title,
      editor: editorOf(ctx.principal),
      actor: actorOf(ctx),
      requestId: ctx.requestId,
    }),
  ),

  /** Unmetered; owners and the report's author; an audit event `audit.report.deleted`. */
  delete: workspaceProcedure.input(reportIdInput).mutation(({ ctx, input }) =>
    deleteReport(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      id: input.id,
      editor: editorOf(ctx.principal),
      actor: actorOf(ctx),
      requestId: ctx.requestId,
    }),
  ),
});

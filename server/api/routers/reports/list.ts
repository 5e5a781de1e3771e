// The reports router's list (dashboard only).
// The procedure, with its contract beside its work.
import { listReports } from "../../../reports/reports";
import { listReportsInput, reportPageSchema } from "../../../reports/schemas";
import { workspaceProcedure } from "../../trpc";

/** Unmetered; expired reports are hidden, legacy reports without an expiry are shown. */
export const listProcedure = workspaceProcedure
  .input(listReportsInput)
  .output(reportPageSchema)
  .query(({ ctx, input }) =>
    listReports(ctx.db, { workspaceId: ctx.principal.workspaceId, limit: input.limit, cursor: input.cursor }),
  );

// The reports router's rename (dashboard only).
// The procedure, with its contract beside its work.
import { renameReport } from "../../../reports/manage";
import { renameReportInput } from "../../../reports/schemas";
import { actorOf } from "../../actor";
import { workspaceProcedure } from "../../trpc";
import { editorOf } from "./shared";

/** Unmetered; owners and the report's author; an audit event `audit.report.renamed`. */
export const renameProcedure = workspaceProcedure.input(renameReportInput).mutation(({ ctx, input }) =>
  renameReport(ctx.db, {
    workspaceId: ctx.principal.workspaceId,
    id: input.id,
    title: input.title,
    editor: editorOf(ctx.principal),
    actor: actorOf(ctx),
    requestId: ctx.requestId,
  }),
);

// The reports router's delete (dashboard only).
// The procedure, with its contract beside its work.
import { deleteReport } from "../../../reports/manage";
import { reportIdInput } from "../../../reports/schemas";
import { actorOf } from "../../actor";
import { workspaceProcedure } from "../../trpc";
import { editorOf } from "./shared";

/** Unmetered; owners and the report's author; an audit event `audit.report.deleted`. */
export const deleteProcedure = workspaceProcedure.input(reportIdInput).mutation(({ ctx, input }) =>
  deleteReport(ctx.db, {
    workspaceId: ctx.principal.workspaceId,
    id: input.id,
    editor: editorOf(ctx.principal),
    actor: actorOf(ctx),
    requestId: ctx.requestId,
  }),
);

// POST /cases/{id}/assign: assign a review case.
// The procedure, with its contract (meta, input, output) beside its work.
import { assignCaseOrThrow } from "../../../cases/cases";
import { caseAssignSchema, caseRecordSchema } from "../../../cases/schemas";
import { actorOf } from "../../actor";
import { casesProcedure, TAGS } from "./shared";

export const assignProcedure = casesProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "POST",
      path: "/cases/{id}/assign",
      tags: TAGS,
      summary: "Assign a review case",
      description:
        "Body: `assignee`: a member's user id (`usr_…`, as cases answer it), a member's email address (as they were invited; they must have signed in once), `\"me\"` (the signed-in member; an API key is refused), or null to unassign. Anyone who is not a member of the workspace is 400 INVALID_REQUEST.",
    },
  })
  .input(caseAssignSchema)
  .output(caseRecordSchema)
  .mutation(({ ctx, input }) =>
    assignCaseOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      requestId: ctx.requestId,
      actor: actorOf(ctx),
      id: input.id,
      assignee: input.assignee,
    }),
  );

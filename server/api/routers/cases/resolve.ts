// POST /cases/{id}/resolve: resolve a review case.
// The procedure, with its contract (meta, input, output) beside its work.
import { resolveCaseOrThrow } from "../../../cases/cases";
import { caseRecordSchema, caseResolveSchema } from "../../../cases/schemas";
import { actorOf } from "../../actor";
import { casesProcedure, TAGS } from "./shared";

export const resolveProcedure = casesProcedure
  .meta({
    errors: ["NOT_FOUND", "CONFLICT"],
    openapi: {
      method: "POST",
      path: "/cases/{id}/resolve",
      tags: TAGS,
      summary: "Resolve a review case",
      description:
        "Body: `resolution` (`fraud` or `legitimate`), optional `note`, optional `add_to_list` { `list_id`, `value`: `user`, `email`, `device` or `ip`, `expires_at`? } to add that value of the case to a named list of the matching kind (an email may go into an email_domain list as its domain). Resolving labels the assessment's outcome (POST /assess/{request_id}/outcome: what backtests and learned weights read), is an audit event (`audit.case.resolved`), and queues a `case.resolved` webhook. A case already resolved is 409 CONFLICT; a list of another kind or a value the case lacks is 400 INVALID_REQUEST, before anything is written.",
    },
  })
  .input(caseResolveSchema)
  .output(caseRecordSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...rest } = input;
    return resolveCaseOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      requestId: ctx.requestId,
      actor: actorOf(ctx),
      id,
      ...rest,
    });
  });

// DELETE /rules/{id}: delete a rule.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { deleteRuleOrThrow } from "../../../rules/rules";
import { ruleIdSchema } from "../../../rules/schemas";
import { actorOf } from "../../actor";
import { rulesProcedure, TAGS } from "./shared";

export const deleteProcedure = rulesProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "DELETE",
      path: "/rules/{id}",
      tags: TAGS,
      summary: "Delete a rule",
      description: "Deletes a rule of this workspace; 404 NOT_FOUND for an unknown id or another workspace's rule.",
    },
  })
  .input(z.object({ id: ruleIdSchema }))
  .output(z.object({ id: z.string(), deleted: z.literal(true) }))
  .mutation(({ ctx, input }) =>
    deleteRuleOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      requestId: ctx.requestId,
      actor: actorOf(ctx),
      id: input.id,
    }),
  );

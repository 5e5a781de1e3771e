// PATCH /rules/{id}: update a rule.
// The procedure, with its contract (meta, input, output) beside its work.
import { updateRuleOrThrow } from "../../../rules/rules";
import { ruleRecordSchema, ruleUpdateSchema } from "../../../rules/schemas";
import { actorOf } from "../../actor";
import { rulesProcedure, TAGS, LANGUAGE } from "./shared";

export const updateProcedure = rulesProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "PATCH",
      path: "/rules/{id}",
      tags: TAGS,
      summary: "Update a rule",
      description: `Changes any of \`name\`, \`action\`, \`mode\`, \`priority\`, \`enabled\`, \`conditions\` or \`expression\` (either replaces the rule's whole condition, and switches its form). 404 NOT_FOUND for an unknown id or another workspace's rule. ${LANGUAGE}`,
    },
  })
  .input(ruleUpdateSchema)
  .output(ruleRecordSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateRuleOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      requestId: ctx.requestId,
      actor: actorOf(ctx),
      id,
      changes,
    });
  });

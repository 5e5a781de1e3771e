// POST /rules: create a rule.
// The procedure, with its contract (meta, input, output) beside its work.
import { createRule } from "../../../rules/rules";
import { ruleCreateSchema, ruleRecordSchema } from "../../../rules/schemas";
import { actorOf } from "../../actor";
import { rulesProcedure, TAGS, LANGUAGE } from "./shared";

export const createProcedure = rulesProcedure
  .meta({
    errors: ["CONFLICT"],
    openapi: {
      method: "POST",
      path: "/rules",
      tags: TAGS,
      summary: "Create a rule",
      description: `Creates a custom rule evaluated by POST /assess. When several enabled active rules match, all are listed in the assessment and the first in evaluation order decides (\`allow\` whitelists); try it first with POST /rules/backtest or \`mode: shadow\`. At most 100 rules per workspace (409 CONFLICT beyond). ${LANGUAGE}`,
    },
  })
  .input(ruleCreateSchema)
  .output(ruleRecordSchema)
  .mutation(({ ctx, input }) =>
    createRule(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      requestId: ctx.requestId,
      actor: actorOf(ctx),
      rule: input,
    }),
  );

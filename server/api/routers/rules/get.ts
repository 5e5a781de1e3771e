// GET /rules/{id}: read a rule.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { getRuleOrThrow } from "../../../rules/rules";
import { ruleIdSchema, ruleRecordSchema } from "../../../rules/schemas";
import { rulesProcedure, TAGS } from "./shared";

export const getProcedure = rulesProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/rules/{id}",
      tags: TAGS,
      summary: "Read a rule",
      description: "One rule of this workspace; 404 NOT_FOUND for an unknown id or another workspace's rule.",
    },
  })
  .input(z.object({ id: ruleIdSchema }))
  .output(ruleRecordSchema)
  .query(({ ctx, input }) => getRuleOrThrow(ctx.db, ctx.principal.workspaceId, input.id));

// GET /rules: list rules.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { listRules } from "../../../rules/rules";
import { ruleRecordSchema } from "../../../rules/schemas";
import { rulesProcedure, TAGS } from "./shared";

export const listProcedure = rulesProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/rules",
      tags: TAGS,
      summary: "List rules",
      description: "This workspace's rules in evaluation order (ascending `priority`, then oldest first).",
    },
  })
  .input(z.object({}))
  .output(z.object({ items: z.array(ruleRecordSchema) }))
  .query(async ({ ctx }) => ({ items: await listRules(ctx.db, ctx.principal.workspaceId) }));

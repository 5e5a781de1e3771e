import { z } from "zod";
import { conditionLanguageDoc } from "../../rules/conditions";
import { createRule, deleteRuleOrThrow, getRuleOrThrow, listRules, updateRuleOrThrow } from "../../rules/rules";
import { ruleCreateSchema, ruleIdSchema, ruleRecordSchema, ruleUpdateSchema } from "../../rules/schemas";
import { actorOf } from "../actor";
import { authenticated, router } from "../trpc";

/** Rules are unmetered but keep their capability check (spec Limits rule 5): any Suite or Lookups plan. */
const rulesProcedure = authenticated.meta({
  requires: { capability: "full", subject: "Rules need" },
  // Names and condition values are free text: tabs and line breaks pass, NUL never (input-screen.ts).
  freeText: ["name", "conditions.value"],
});

const ACCESS = { requirement: "any Suite or Lookups plan; unmetered" };
const TAGS = ["Rules"];
const LANGUAGE =
  "A rule's `conditions` is a list of 1 to 20 `{ field, op, value }` tests that must all hold. `in`/`not_in` take a list of values; `cidr` takes a CIDR or a list of CIDRs; string comparisons ignore case except for user_agent, device_id and user_id (`contains` always ignores case). An unknown fact (no email, no location) never matches, not even with `neq`. Fields: " +
  conditionLanguageDoc() +
  ".";

export const rulesRouter = router({
  list: rulesProcedure
    .meta({
      openapi: { method: "GET", path: "/rules", tags: TAGS, summary: "List rules", description: "This workspace's rules in evaluation order (ascending `priority`, then oldest first). Any Suite or Lookups plan; unmetered." },
      access: ACCESS,
    })
    .input(z.object({}))
    .output(z.object({ items: z.array(ruleRecordSchema) }))
    .query(async ({ ctx }) => ({ items: await listRules(ctx.db, ctx.principal.workspaceId) })),

  create: rulesProcedure
    .meta({
      errors: ["CONFLICT"],
      openapi: {
        method: "POST",
        path: "/rules",
        tags: TAGS,
        summary: "Create a rule",
        description: `Creates a custom rule evaluated by POST /assess. When several enabled rules match, all are listed in the assessment and the first in evaluation order decides (\`allow\` whitelists). At most 100 rules per workspace (409 CONFLICT beyond). ${LANGUAGE} Any Suite or Lookups plan; unmetered.`,
      },
      access: ACCESS,
    })
    .input(ruleCreateSchema)
    .output(ruleRecordSchema)
    .mutation(({ ctx, input }) => createRule(ctx.db, { workspaceId: ctx.principal.workspaceId, requestId: ctx.requestId, actor: actorOf(ctx), rule: input })),

  get: rulesProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: { method: "GET", path: "/rules/{id}", tags: TAGS, summary: "Read a rule", description: "One rule of this workspace; 404 NOT_FOUND for an unknown id or another workspace's rule. Any Suite or Lookups plan; unmetered." },
      access: ACCESS,
    })
    .input(z.object({ id: ruleIdSchema }))
    .output(ruleRecordSchema)
    .query(({ ctx, input }) => getRuleOrThrow(ctx.db, ctx.principal.workspaceId, input.id)),

  update: rulesProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "PATCH",
        path: "/rules/{id}",
        tags: TAGS,
        summary: "Update a rule",
        description: `Changes any of \`name\`, \`action\`, \`priority\`, \`enabled\`, \`conditions\` (conditions are replaced as a whole). 404 NOT_FOUND for an unknown id or another workspace's rule. ${LANGUAGE} Any Suite or Lookups plan; unmetered.`,
      },
      access: ACCESS,
    })
    .input(ruleUpdateSchema)
    .output(ruleRecordSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...changes } = input;
      return updateRuleOrThrow(ctx.db, { workspaceId: ctx.principal.workspaceId, requestId: ctx.requestId, actor: actorOf(ctx), id, changes });
    }),

  delete: rulesProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: { method: "DELETE", path: "/rules/{id}", tags: TAGS, summary: "Delete a rule", description: "Deletes a rule of this workspace; 404 NOT_FOUND for an unknown id or another workspace's rule. Any Suite or Lookups plan; unmetered." },
      access: ACCESS,
    })
    .input(z.object({ id: ruleIdSchema }))
    .output(z.object({ id: z.string(), deleted: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteRuleOrThrow(ctx.db, { workspaceId: ctx.principal.workspaceId, requestId: ctx.requestId, actor: actorOf(ctx), id: input.id })),
});

// GET /rule-packs and POST /rule-packs/{pack_id}/enable: the rule packs we ship (server/rules/packs.ts), off until a
// workspace enables one, which creates its rules as the workspace's own.
// The procedures, with their contracts (meta, input, output) beside their work.
import { z } from "zod";
import { enableRulePackOrThrow, listRulePacks } from "../../../rules/packs";
import { RULE_ACTIONS } from "../../../rules/rules";
import { ruleRecordSchema } from "../../../rules/schemas";
import { actorOf } from "../../actor";
import { rulesProcedure, TAGS } from "./shared";

const packRuleSchema = z.object({
  name: z.string(),
  action: z.enum(RULE_ACTIONS),
  expression: z.string().describe("The rule's CEL expression: send it to POST /rules/backtest to try it first"),
  why: z.string().describe("What the rule catches, in words"),
});

const packSchema = z.object({
  id: z.string().describe("The pack's id, e.g. `card_testing`"),
  name: z.string(),
  description: z.string(),
  enabled: z.boolean().describe("The workspace has every rule of the pack (by name and expression)"),
  rules: z.array(packRuleSchema),
});

export const listPacksProcedure = rulesProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/rule-packs",
      tags: TAGS,
      summary: "List rule packs",
      description:
        "Rules we ship for known attacks (card testing: many cards from one device or address in an hour, most declined), each off until enabled. Every rule's expression can be backtested first with POST /rules/backtest.",
    },
  })
  .input(z.object({}))
  .output(z.object({ items: z.array(packSchema) }))
  .query(async ({ ctx }) => ({ items: await listRulePacks(ctx.db, ctx.principal.workspaceId) }));

export const enablePackProcedure = rulesProcedure
  .meta({
    errors: ["NOT_FOUND", "CONFLICT"],
    openapi: {
      method: "POST",
      path: "/rule-packs/{pack_id}/enable",
      tags: TAGS,
      summary: "Enable a rule pack",
      description:
        "Creates the pack's rules in this workspace (each an ordinary rule from then on: edit, shadow or delete it like any other; audited). Rules the workspace already has (same name and expression) are kept, so enabling twice adds nothing. `mode: shadow` creates them as shadow rules to watch before they decide. 404 NOT_FOUND for an unknown pack; 409 CONFLICT beyond the workspace's rule limit.",
    },
  })
  .input(
    z.object({
      pack_id: z.string().trim().min(1).max(64).describe("The pack's id from GET /rule-packs, e.g. `card_testing`"),
      mode: z.enum(["active", "shadow"]).optional().describe("The mode of the rules created; default active"),
    }),
  )
  .output(z.object({ pack_id: z.string(), rules: z.array(ruleRecordSchema) }))
  .mutation(async ({ ctx, input }) => {
    const done = await enableRulePackOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      requestId: ctx.requestId,
      actor: actorOf(ctx),
      packId: input.pack_id,
      mode: input.mode,
    });
    return { pack_id: done.pack.id, rules: done.rules };
  });

import { z } from "zod";
import { conditionLanguageDoc } from "../../rules/conditions";
import { factsDoc } from "../../rules/facts";
import { createRule, deleteRuleOrThrow, getRuleOrThrow, listRules, updateRuleOrThrow } from "../../rules/rules";
import { backtestRule } from "../../assessment/backtest";
import { backtestRateLimit, backtestRateWindowSeconds } from "../../rules/config";
import {
  backtestInputSchema,
  backtestOutputSchema,
  ruleCreateSchema,
  ruleIdSchema,
  ruleRecordSchema,
  ruleUpdateSchema,
} from "../../rules/schemas";
import { actorOf } from "../actor";
import { authenticated, router } from "../trpc";

/** Rules are unmetered but keep their capability check (spec Limits rule 5): capability `full`. */
const rulesProcedure = authenticated.meta({
  requires: { capability: "full", subject: "Rules need" },
  // Names and condition values are free text: tabs and line breaks pass, NUL never (input-screen.ts).
  freeText: ["name", "conditions.value", "expression"],
});

const TAGS = ["Rules"];
const LANGUAGE =
  "A rule has either `conditions` or an `expression` (send exactly one). `conditions` is a list of 1 to 20 `{ field, op, value }` tests that must all hold; `in`/`not_in` take a list of values; `cidr` takes a CIDR or a list of CIDRs; values are trimmed and saved in canonical form (ranges, addresses, upper-case country and currency codes, other strings lower-case except user_agent, device_id and user_id; `contains` ignores case). Condition fields: " +
  conditionLanguageDoc() +
  '. An `expression` is CEL (Common Expression Language: `==`, `!=`, `<`, `<=`, `>`, `>=`, `in`, `&&`, `||`, `!`, `? :`, arithmetic, string methods `contains`, `startsWith`, `endsWith`, `lowerAscii`, `size`, list macros `exists`, `all`, `exists_one`, `filter`, `map` over `signals` or `ip.lists`, `has(email.address)` to ask whether a fact is known, and `ip.address.inCidr("203.0.113.0/24")` or `.inCidr([...])` for ranges; `in_list("name", value)` for membership in one of the workspace\'s named lists (/v1/lists; the name is a quoted literal, and a list the workspace does not have is 400 INVALID_REQUEST when the rule is saved), e.g. `in_list("blocked_emails", email.address)` or `in_list("office_networks", ip.address)`; `matches` and `cel.bind` are not available), at most 4,000 characters, and must give true or false; e.g. `ip.country != billing_country && amount > 500` or `velocity.device_users_1h > 3 || "email_disposable" in signals`. Saving checks it against the identifiers below: an unknown identifier, a type error or a syntax error is 400 INVALID_REQUEST whose message gives the line, column and offset and what to change. Identifiers: ' +
  factsDoc() +
  ". A fact that is unknown for an assessment (no email, no location) makes any test on it false, even `!=`. Condition fields are names for the same facts, and both forms run through the same evaluator. A rule that fails to evaluate (e.g. division by zero) is listed in the assessment's `rule_errors` and skipped, never an error of the assessment; all rules of one assessment share a time budget. `mode: shadow` rules are evaluated and listed in `shadow_rules` (and recorded in the event), never changing the decision.";

export const rulesRouter = router({
  list: rulesProcedure
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
    .query(async ({ ctx }) => ({ items: await listRules(ctx.db, ctx.principal.workspaceId) })),

  create: rulesProcedure
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
    ),

  backtest: rulesProcedure
    .meta({
      errors: ["NOT_FOUND"],
      rateLimit: {
        name: "rules-backtest",
        limit: backtestRateLimit,
        windowSeconds: backtestRateWindowSeconds,
        what: "backtests",
      },
      openapi: {
        method: "POST",
        path: "/rules/backtest",
        tags: TAGS,
        summary: "Backtest a rule on past assessments",
        description:
          "Evaluates a rule (send `action` with `conditions` or an `expression`, as for POST /rules, optionally its `priority`) or an existing rule (`rule_id`) against this workspace's assessments recorded in [`since`, `until`) (default the last 30 days; at most 400 days), from the facts stored with each assessment (nothing upstream is asked again). Answers how many would match, how the recorded decisions would change (from -> to counts, with the rule in place at its priority among the current rules and the other rules as they matched then), sample request ids, and, from outcome labels (POST /assess/{request_id}/outcome), how many matches were labelled fraud or legitimate (`precision`) and how much labelled fraud it catches (`recall`). Assessments recorded before facts were stored are counted in `without_facts`. At most the newest 200,000 assessments per backtest (`truncated`). An invalid expression is 400 INVALID_REQUEST with its line and column; an unknown `rule_id` is 404 NOT_FOUND.",
      },
    })
    .input(backtestInputSchema)
    .output(backtestOutputSchema)
    .mutation(async ({ ctx, input }) => {
      const ws = ctx.principal.workspaceId;
      const until = input.until ?? new Date();
      const since = input.since ?? new Date(until.getTime() - 30 * 86_400_000);
      return backtestRule(ctx.db, {
        workspaceId: ws,
        ruleId: input.rule_id,
        rule: input.rule_id
          ? undefined
          : {
              action: input.action!,
              priority: input.priority ?? 0,
              conditions: input.conditions,
              expression: input.expression,
            },
        since,
        until,
        samples: input.samples,
      });
    }),

  get: rulesProcedure
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
    .query(({ ctx, input }) => getRuleOrThrow(ctx.db, ctx.principal.workspaceId, input.id)),

  update: rulesProcedure
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
    }),

  delete: rulesProcedure
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
    ),
});

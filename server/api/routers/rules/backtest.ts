// POST /rules/backtest: backtest a rule on past assessments.
// The procedure, with its contract (meta, input, output) beside its work.
import { backtestRule } from "../../../assessment/backtest";
import { backtestRateLimit, backtestRateWindowSeconds } from "../../../rules/config";
import { backtestInputSchema, backtestOutputSchema } from "../../../rules/schemas";
import { withinBurstLimit } from "../../trpc";
import { rulesProcedure, TAGS } from "./shared";

export const backtestProcedure = rulesProcedure
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
  .use(withinBurstLimit)
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
  });

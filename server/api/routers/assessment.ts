import { assess } from "../../assessment/assess";
import { assessRequestSchema, assessResultSchema, type AssessResult } from "../../assessment/schemas";
import { SCORING_DOC } from "../../scoring/score";
import { z } from "zod";
import { labelOutcomeOrThrow, OUTCOMES } from "../../assessment/outcomes";
import { actorString } from "../../audit/audit";
import { actorOf } from "../actor";
import { meteredProcedure, router, workspaceProcedure } from "../trpc";

export const assessmentRouter = router({
  assess: meteredProcedure({
    capability: "full",
    endpoint: "assess",
    input: assessRequestSchema,
    history: (input, out: AssessResult) => ({
      target: input.email ? `${input.event} ${input.ip} ${input.email}` : `${input.event} ${input.ip}`,
      summary: { event: out.event, score: out.score, risk_level: out.risk_level, decision: out.decision },
    }),
  })
    .meta({
      // Metadata values are the caller's own free text (may hold tabs and line breaks; never NUL).
      freeText: ["metadata.*"],
      openapi: {
        method: "POST",
        path: "/assess",
        tags: ["Assessment"],
        summary: "Assess the risk of a signup, login, checkout, form or API event",
        description:
          "Scores an event from offline evidence: the IP's reputation (Tor exit list, Spamhaus DROP, hosting and cloud networks, non-public addresses), its geolocation against `billing_country`, the email (disposable, free provider, role account, typo, mail acceptance with a short DNS budget), the User-Agent (missing, headless or automation tools; not for `api` events), velocity (the same IP, email or device assessed in this workspace in the last hour), the checkout amount, and the account's own history: by `user_id`, else the email, its succeeded assessments of the last 90 days give a baseline (a country, network or device new for the account, impossible travel since its last succeeded login) and its failed attempts (`status: failed` on login and signup events) give failure counters, per account and per address (many accounts failing from one address is credential stuffing); see `account` in the answer. " +
          SCORING_DOC +
          " Each assessment is recorded as an investigation event (type `assessment`, searchable by request ID, IP, email, domain and first matching rule via GET /events), and a high or critical result queues a `high_risk_assessment` webhook delivery without delaying the response. Invalid input (including a malformed email) is 400 before any unit.",
      },
    })
    .output(assessResultSchema)
    .mutation(({ ctx, input }) =>
      assess(ctx.db, { workspaceId: ctx.principal.workspaceId, requestId: ctx.requestId, request: input }),
    ),

  outcome: workspaceProcedure
    .meta({
      errors: ["NOT_FOUND"],
      // The note is the caller's own free text (tabs and line breaks pass; never NUL).
      freeText: ["note"],
      openapi: {
        method: "POST",
        path: "/assess/{request_id}/outcome",
        tags: ["Assessment"],
        summary: "Label the outcome of an assessed request",
        description:
          "Records what became of an assessed request: `fraud`, `legitimate`, `chargeback`, `account_takeover` or `abuse` (every label but `legitimate` counts as fraud), with an optional `note` (at most 1,000 characters). A new label replaces the previous one (answered as `previous`). Each label is an investigation event (type `assessment.outcome` under the assessed request's id, searchable with GET /events). Labels feed the precision and recall of POST /rules/backtest and GET /analytics/summary. A request id this workspace did not assess (another workspace's included) is 404 NOT_FOUND.",
      },
    })
    .input(
      z.object({
        request_id: z.string().trim().min(1).max(64).describe("The `request_id` of the assessment"),
        outcome: z.enum(OUTCOMES).describe("What the request turned out to be"),
        note: z.string().trim().max(1000).optional().describe("Free text for people, at most 1,000 characters"),
      }),
    )
    .output(
      z.object({
        request_id: z.string(),
        outcome: z.enum(OUTCOMES),
        note: z.string().nullable(),
        previous: z.enum(OUTCOMES).nullable().describe("The label this one replaced, or null"),
        labelled_at: z.string(),
      }),
    )
    .mutation(({ ctx, input }) =>
      labelOutcomeOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        labelRequestId: ctx.requestId,
        requestId: input.request_id,
        outcome: input.outcome,
        note: input.note || null,
        actor: actorString(actorOf(ctx)),
      }),
    ),
});

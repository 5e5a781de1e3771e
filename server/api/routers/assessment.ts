import { assess } from "../../assessment/assess";
import { assessRequestSchema, assessResultSchema, type AssessResult } from "../../assessment/schemas";
import { SCORING_DOC } from "../../assessment/score";
import { meteredProcedure, router } from "../trpc";

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
          "Scores an event from offline evidence: the IP's reputation (Tor exit list, Spamhaus DROP, hosting and cloud networks, non-public addresses), its geolocation against `billing_country`, the email (disposable, free provider, role account, typo, mail acceptance with a short DNS budget), the User-Agent (missing, headless or automation tools; not for `api` events), velocity (the same IP, email or device assessed in this workspace in the last hour) and the checkout amount. " +
          SCORING_DOC +
          " Each assessment is recorded as an investigation event (type `assessment`, searchable by request ID, IP, email, domain and first matching rule via GET /events), and a high or critical result queues a `high_risk_assessment` webhook delivery without delaying the response. Invalid input (including a malformed email) is 400 before any unit. Capability `full` (any Suite or Lookups plan); 1 lookup unit.",
      },
    })
    .output(assessResultSchema)
    .mutation(({ ctx, input }) => assess(ctx.db, { workspaceId: ctx.principal.workspaceId, requestId: ctx.requestId, request: input })),
});

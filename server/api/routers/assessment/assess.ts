// POST /assess: assess the risk of a signup, login, checkout, form or API event.
// The procedure, with its contract (meta, input, output) beside its work.
import { assess, velocityAlongside, type PreRead } from "../../../assessment/assess";
import { fullCardNumberRefusal } from "../../../assessment/payment";
import { assessRequestSchema, assessResultSchema, type AssessResult } from "../../../assessment/schemas";
import { SCORING_DOC } from "../../../scoring/score";
import { meteredProcedure, type MeteredOptions } from "../../trpc";

/** The metering of POST /assess. */
export const assessMetering = {
  capability: "full",
  endpoint: "assess",
  input: assessRequestSchema,
  history: (input, out: AssessResult) => ({
    target: input.email ? `${input.event} ${input.ip} ${input.email}` : `${input.event} ${input.ip}`,
    summary: { event: out.event, score: out.score, risk_level: out.risk_level, decision: out.decision },
  }),
  // The velocity counts are read in the reservation's statement: one round trip for both (server/quota/reserve.ts).
  readAlongside: (workspaceId, input) => {
    const { read, velocity } = velocityAlongside(workspaceId, input);
    return { read, take: velocity };
  },
} satisfies MeteredOptions<typeof assessRequestSchema>;

/** Metadata values are the caller's own free text (may hold tabs and line breaks; never NUL). */
export const ASSESS_FREE_TEXT = ["metadata.*"];

export const assessProcedure = meteredProcedure(assessMetering)
  .meta({
    freeText: ASSESS_FREE_TEXT,
    // A full card number anywhere in `payment` (server/assessment/payment.ts); refused before admission, free, and
    // before any other problem of the same input.
    errors: ["INVALID_INPUT"],
    neverSent: fullCardNumberRefusal,
    openapi: {
      method: "POST",
      path: "/assess",
      tags: ["Assessment"],
      summary: "Assess the risk of a signup, login, checkout, form or API event",
      description:
        "Scores an event from offline evidence: the IP's reputation (Tor exit list, Spamhaus DROP, hosting and cloud networks, non-public addresses), its geolocation against `billing_country`, the email (disposable, free provider, role account, typo, mail acceptance with a short DNS budget), the User-Agent (missing, headless or automation tools; not for `api` events), velocity (the same IP, email or device assessed in this workspace in the last hour), the checkout amount, and the account's own history: by `user_id`, else the email, its succeeded assessments of the last 90 days give a baseline (a country, network or device new for the account, impossible travel since its last succeeded login) and its failed attempts (`status: failed` on login and signup events) give failure counters, per account and per address (many accounts failing from one address is credential stuffing); see `account` in the answer. " +
        SCORING_DOC +
        " Each assessment is recorded as an investigation event (type `assessment`, searchable by request ID, IP, email, domain and first matching rule via GET /events), and a high or critical result queues a `high_risk_assessment` webhook delivery without delaying the response. Invalid input (including a malformed email) is 400 INVALID_REQUEST before any unit; a full card number anywhere in `payment` is 400 INVALID_INPUT (send the BIN and last four), neither stored nor logged.",
    },
  })
  .output(assessResultSchema)
  .mutation(({ ctx, input }) =>
    assess(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      requestId: ctx.requestId,
      request: input,
      // The velocity row the reservation read (readAlongside above), when it carried the read.
      velocity: ctx.alongside as PreRead | undefined,
    }),
  );

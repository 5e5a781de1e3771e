// POST /assess/{request_id}/outcome: label the outcome of an assessed request.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { labelOutcomeOrThrow, OUTCOMES } from "../../../assessment/outcomes";
import { actorString } from "../../../audit/audit";
import { actorOf } from "../../actor";
import { workspaceProcedure } from "../../trpc";

export const outcomeProcedure = workspaceProcedure
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
  );

// GET /lookups/history: lookup history.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { timestampSchema, withUntilAfterSince } from "../../../timestamps";
import { listLookupHistory } from "../../../history/history";
import { historyWindowsList } from "../../contract-text";
import { workspaceProcedure } from "../../trpc";
import { nextPageFields, requestIdFields, withNextPage, withRequestId } from "../snake-twins";
import { since, until, int } from "./shared";

const historyEntry = z.object({
  id: z.string(),
  ...requestIdFields,
  endpoint: z.string(),
  target: z.string(),
  summary: z.record(z.string(), z.unknown()),
  units: z
    .number()
    .int()
    .nullable()
    .describe(
      "Lookup units the request was charged, after what it gave back (`summary.refunded_units`); null for entries written before costs were kept",
    ),
  status: z
    .number()
    .int()
    .nullable()
    .describe("Status code of the answer (200, 202 or the error's status; a charged lookup can fail upstream)"),
  code: z.string().nullable().describe("The error code of a failed answer, else null"),
  created_at: z.string(),
  expires_at: z.string(),
});

export const lookupHistoryProcedure = workspaceProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/lookups/history",
      tags: ["Workspace"],
      summary: "Lookup history",
      description: `Safe summaries of this workspace's recent charged requests (never the raw payload), newest first: every request that was charged units is an entry with its \`units\` and outcome (\`status\`, and \`code\` when it failed), failed lookups, report saves and bulk job items included, so a month's entries add up to \`X-Service-Quota-Used\`. What a request gave back (all of a 503's units, the targets of a batch no source answered) is taken off its \`units\` and named in its \`summary\` as \`refunded_units\` and \`refund_reason\`; an answer that could not be delivered reads status 499 with 0 units. Each entry has \`created_at\` and the \`expires_at\` captured from the plan's history window at lookup time (${historyWindowsList()}). Filter with \`endpoint\` (an endpoint name such as \`ip.lookup\`, or a family such as \`ip\` for every IP lookup), \`since\` (inclusive) and \`until\` (exclusive; one not after \`since\` is 400 INVALID_REQUEST). Paginate with \`limit\` (1..100, default 50) and the \`next_cursor\` of the previous page as \`cursor\` (one that names none of this workspace's entries, such as one purged since, is 400 INVALID_REQUEST; one whose entry is past its window but not yet purged still continues the walk).`,
    },
  })
  .input(
    withUntilAfterSince(
      z.object({
        limit: z.coerce.number().int().min(1).max(100).default(50),
        cursor: z.string().max(64).optional(),
        endpoint: z
          .string()
          .trim()
          .max(64)
          .regex(/^[a-z][a-z0-9.-]*$/, "must be an endpoint name such as ip.lookup, or a family such as ip")
          .optional()
          .describe("Only lookups of this endpoint (`ip.lookup`) or family (`ip`)"),
        since: timestampSchema.optional().describe("Only lookups at or after this time (ISO 8601)"),
        until: timestampSchema.optional().describe("Only lookups before this time (ISO 8601)"),
      }),
    ),
  )
  .output(
    z.object({
      history_days: z
        .number()
        .int()
        .describe("Days this plan keeps lookup history; 0 keeps none (the list is then empty)"),
      historyDays: z.number().int().describe("The same as `history_days`, under the name this list answered first"),
      items: z.array(historyEntry),
      ...nextPageFields,
    }),
  )
  .query(async ({ ctx, input }) => {
    const { historyDays } = ctx.principal.entitlements;
    if (historyDays === 0) return withNextPage({ history_days: 0, historyDays, items: [], nextCursor: null });
    const page = await listLookupHistory(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      limit: input.limit,
      cursor: input.cursor ?? null,
      endpoint: input.endpoint,
      since: input.since,
      until: input.until,
    });
    return withNextPage({
      history_days: historyDays,
      historyDays,
      items: page.items.map(withRequestId),
      nextCursor: page.nextCursor,
    });
  });

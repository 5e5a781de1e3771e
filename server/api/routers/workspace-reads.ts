import { z } from "zod";
import { listLookupHistory } from "../../history/history";
import { router, workspaceProcedure } from "../trpc";

const historyEntry = z.object({
  id: z.string(),
  requestId: z.string(),
  endpoint: z.string(),
  target: z.string(),
  summary: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  expires_at: z.string(),
});

export const workspaceReadsRouter = router({
  lookupHistory: workspaceProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/lookups/history",
        tags: ["Workspace"],
        summary: "Lookup history",
        description:
          "Safe summaries of this workspace's recent lookups (never the raw payload), newest first, each with `created_at` and the `expires_at` captured from the plan's history window at lookup time (Free: no history; Paid Email 7 days; Suite Starter 30; Suite Business and Lookups Developer 90; Suite Agency and Lookups Growth 365). Paginate with `limit` (1..100, default 50) and the `nextCursor` of the previous page as `cursor`. Any active workspace key; unmetered.",
      },
      access: { requirement: "any active workspace key; unmetered" },
    })
    .input(
      z.object({
        limit: z.coerce.number().int().min(1).max(100).default(50),
        cursor: z.string().max(64).optional(),
      }),
    )
    .output(z.object({ historyDays: z.number().int(), items: z.array(historyEntry), nextCursor: z.string().nullable() }))
    .query(async ({ ctx, input }) => {
      const { historyDays } = ctx.principal.entitlements;
      if (historyDays === 0) return { historyDays, items: [], nextCursor: null };
      const page = await listLookupHistory(ctx.db, { workspaceId: ctx.principal.workspaceId, limit: input.limit, cursor: input.cursor ?? null });
      return { historyDays, ...page };
    }),
});

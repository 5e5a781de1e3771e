// POST /jobs/estimate: estimate a bulk job.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { BULK_KINDS } from "../../../bulk/kinds";
import { planJob } from "../../../bulk/jobs";
import { readUsage } from "../../../quota/reserve";
import { TAGS, runProcedure, AUTO, jobInput } from "./shared";

const lineSchema = z.object({
  line: z.number().int(),
  target: z.string(),
  kind: z.enum(BULK_KINDS).nullable(),
  units: z.number().int(),
  problem: z.string().nullable().describe("Why this line cannot run, or null"),
});

export const estimateProcedure = runProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/jobs/estimate",
      tags: TAGS,
      summary: "Estimate a bulk job",
      description: `What POST /jobs would do with the same body, without starting or charging anything: each line's kind, units and any problem (by line number), the total units and whether they fit in what is left of this month's allowance. ${AUTO}`,
    },
  })
  .input(jobInput)
  .output(
    z.object({
      lines: z.array(lineSchema),
      units: z.number().int(),
      remaining: z.number().int(),
      fits: z.boolean(),
      problems: z.number().int(),
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const p = ctx.principal;
    const plan = await planJob(p.entitlements, input.kind, input.targets);
    const usage = await readUsage(ctx.db, p.workspaceId, p.entitlements.monthlyUnits);
    return {
      lines: plan.lines.map(({ line, target, kind, units, problem }) => ({ line, target, kind, units, problem })),
      units: plan.units,
      remaining: usage.remaining,
      fits: plan.units <= usage.remaining,
      problems: plan.problems.length,
    };
  });

// The dashboard's "what will this monitor cost a month" (dashboard only: no OpenAPI meta, so not under /v1). It
// reads the workspace's other active monitors (without the one being edited) and answers the units of this one and
// of them all against the monthly allowance, writing nothing, so the cost is shown before the monitor is saved.
import { z } from "zod";
import { estimateMonitorUnits } from "../../../monitors/estimate";
import { INTERVALS, type MonitorInterval } from "../../../monitors/limits";
import { checksOf } from "../../../monitors/records";
import { projectNameSchema } from "../../../projects/names";
import { latestDefaultPackages } from "../../../projects/store";
import { monitorIdSchema } from "../../../monitors/schemas";
import { CHECK_TYPES } from "../../../monitors/checks/types";
import { monitorsProcedure } from "./shared";

const estimateInput = z.object({
  id: monitorIdSchema.optional().describe("The monitor being edited, left out of the others"),
  checks: z.number().int().min(1).max(CHECK_TYPES.length),
  interval: z.enum(INTERVALS),
  project: projectNameSchema
    .optional()
    .describe("A project monitor's project: a run costs its latest default-ref scan's package versions"),
});

const estimateOutput = z.object({
  checks: z.number().int(),
  units_per_run: z.number().int().describe("One per check; a project monitor's package versions"),
  runs_per_month: z.number().int(),
  units_per_month: z.number().int().describe("This monitor's units in a 30-day month"),
  workspace_units_per_month: z.number().int().describe("This monitor and the other active ones together"),
  monthly_allowance: z.number().int(),
});

export const estimateProcedure = monitorsProcedure
  .input(estimateInput)
  .output(estimateOutput)
  .query(async ({ ctx, input }) => {
    const others = await ctx.db.monitor.findMany({
      where: {
        workspaceId: ctx.principal.workspaceId,
        status: "active",
        ...(input.id ? { NOT: { id: input.id } } : {}),
      },
      select: { checks: true, interval: true, target: true },
    });
    const ws = ctx.principal.workspaceId;
    // A project monitor's run costs its project's package versions as they are now (checks/project.ts).
    const projectUnits = async (project: string) =>
      (await latestDefaultPackages(ctx.db, ws, project))?.packages.length ?? 0;
    const watches = (m: { checks: unknown }) => checksOf(m).some((c) => c.type === "project");
    return estimateMonitorUnits({
      monitor: {
        checks: input.checks,
        interval: input.interval,
        ...(input.project ? { unitsPerRun: await projectUnits(input.project) } : {}),
      },
      otherActive: await Promise.all(
        others.map(async (m) => ({
          checks: checksOf(m).length,
          interval: m.interval as MonitorInterval,
          ...(watches(m) ? { unitsPerRun: await projectUnits(m.target) } : {}),
        })),
      ),
      monthlyAllowance: ctx.principal.entitlements.monthlyUnits,
    });
  });

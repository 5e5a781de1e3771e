// What a workspace's monitors cost a month, shown in the dashboard before a monitor is saved (issue 26). What a run
// costs is the charging module's answer (server/api/charging.ts monitorRunUnits: one unit per check, a project
// monitor its package versions; handed in by the API layer, ../bulk/procedures.ts), and a 30-day month holds
// 30 days / interval runs; the paused monitors do not run, so they are left out of the sum. Server only: the
// dashboard, which has each monitor's `units_per_run`, sums with ./limits.ts monthlyUnits.
import { jobCharging } from "../bulk/procedures";
import { monthlyUnits, runsPerMonth, type MonitorInterval } from "./limits";

export interface MonitorCost {
  checks: number;
  interval: MonitorInterval;
  /**
   * A run's units when they are known already (a saved monitor's `units_per_run`) or not one per check (a project
   * monitor's package versions); otherwise charging.ts answers them from `checks`.
   */
  unitsPerRun?: number;
}

/** A run's units: as given, or the charging module's for its checks. */
const unitsOfRun = (m: MonitorCost): number => m.unitsPerRun ?? jobCharging().monitorRunUnits({ checks: m.checks });

export const unitsPerMonth = (m: MonitorCost): number => monthlyUnits(unitsOfRun(m), m.interval);

export interface MonitorEstimate {
  checks: number;
  units_per_run: number;
  runs_per_month: number;
  units_per_month: number;
  /** This monitor plus the workspace's other active monitors. */
  workspace_units_per_month: number;
  monthly_allowance: number;
}

export function estimateMonitorUnits(a: {
  monitor: MonitorCost;
  otherActive: MonitorCost[];
  monthlyAllowance: number;
}): MonitorEstimate {
  const units = unitsPerMonth(a.monitor);
  return {
    checks: a.monitor.checks,
    units_per_run: unitsOfRun(a.monitor),
    runs_per_month: runsPerMonth(a.monitor.interval),
    units_per_month: units,
    workspace_units_per_month: a.otherActive.reduce((n, m) => n + unitsPerMonth(m), units),
    monthly_allowance: a.monthlyAllowance,
  };
}

// How many monitors each plan holds and how often they may run (issue 26). Plans without the `full` capability
// (Free, Email) hold none: the routes answer them 403 CAPABILITY_REQUIRED. Combined plans take the most monitors
// and the shortest interval, as every other plan figure does (never the sum).
import type { Entitlements, PlanSlug } from "../plans/catalog";

export const INTERVALS = ["1h", "6h", "12h", "24h", "7d"] as const;
// The checks' option limits the request's schema (./schemas.ts) and the dashboard's form (its own check before
// sending) both read: here, not in ./schemas.ts, so the form can import them.
/** The packages one packages check may name. */
export const MAX_PACKAGES = 20;
/** The TLS check's expiry thresholds: each a whole number of days from `min` to `max`, at most `count` of them. */
export const TLS_EXPIRY_DAYS = { min: 1, max: 365, count: 5 } as const;
/** The numbers of days given more than once among the TLS check's thresholds (each alerts once: a repeat is refused). */
export const repeatedDays = (days: readonly number[]): number[] => [
  ...new Set(days.filter((d, i) => days.indexOf(d) !== i)),
];
/** How the API and the form say which days were repeated. */
export const repeatedDaysText = (repeated: readonly number[]): string =>
  `${repeated.join(", ")} ${repeated.length === 1 ? "is" : "are"} given more than once; give each number of days once`;
export type MonitorInterval = (typeof INTERVALS)[number];

const HOUR = 60 * 60 * 1000;
export const INTERVAL_MS: Record<MonitorInterval, number> = {
  "1h": HOUR,
  "6h": 6 * HOUR,
  "12h": 12 * HOUR,
  "24h": 24 * HOUR,
  "7d": 7 * 24 * HOUR,
};

const MONTH_MS = 30 * 24 * HOUR;

/** Runs in a 30-day month at this interval (4 for 7d, 720 for 1h). */
export const runsPerMonth = (interval: MonitorInterval): number => Math.floor(MONTH_MS / INTERVAL_MS[interval]);

/**
 * A month's units of a monitor whose run's units are known (its `units_per_run`, as the dashboard has it); a run's
 * units themselves are the charging module's answer (server/monitors/estimate.ts asks it).
 */
export const monthlyUnits = (unitsPerRun: number, interval: MonitorInterval): number =>
  unitsPerRun * runsPerMonth(interval);

/** Monitors per plan and the shortest interval it allows. */
export const MONITOR_PLANS: Record<PlanSlug, { monitors: number; minInterval: MonitorInterval }> = {
  free: { monitors: 0, minInterval: "7d" },
  email: { monitors: 0, minInterval: "7d" },
  suite_starter: { monitors: 5, minInterval: "24h" },
  lookups_developer: { monitors: 10, minInterval: "6h" },
  suite_business: { monitors: 25, minInterval: "1h" },
  suite_agency: { monitors: 100, minInterval: "1h" },
  lookups_growth: { monitors: 100, minInterval: "1h" },
};

// No plan is named here: who may call and on which plans is said once, by the access sentence the contract writes
// (test/foundation/contract-text.test.ts); the table of monitors and intervals per plan is in the README.
export const PLAN_TEXT =
  "The plan sets how many monitors the workspace holds and the shortest interval (24h on the smallest plan with monitors, down to 1h on the largest; combined plans take the highest figures; the README has the table). A monitor beyond the limit is refused with 409 MONITOR_LIMIT_REACHED; an interval shorter than the plan allows with 403 CAPABILITY_REQUIRED. After a downgrade the oldest monitors up to the limit keep running (at the plan's shortest interval at most often) and the rest pause (`status: paused`) until capacity returns.";

export function monitorLimits(e: Pick<Entitlements, "plans">): { monitors: number; minIntervalMs: number } {
  const rows = e.plans.map((p) => MONITOR_PLANS[p]).filter(Boolean);
  if (rows.length === 0) return { monitors: 0, minIntervalMs: INTERVAL_MS["7d"] };
  return {
    monitors: Math.max(...rows.map((r) => r.monitors)),
    minIntervalMs: Math.min(...rows.map((r) => INTERVAL_MS[r.minInterval])),
  };
}

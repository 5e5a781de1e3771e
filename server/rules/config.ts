// Rule settings, read at call time so tests and operators can change them without a restart.
import { numberSetting } from "../env";

/** SERVICE_RULES_MAX: how many rules one workspace may hold (default 100). */
export function maxRulesPerWorkspace(): number {
  return numberSetting("SERVICE_RULES_MAX", 100, { min: 1 });
}

/** SERVICE_RULES_EVAL_BUDGET_MS: time all rules of one assessment may take; rules past it are reported as skipped. */
export function evaluationBudgetMs(): number {
  return numberSetting("SERVICE_RULES_EVAL_BUDGET_MS", 50, { min: 1 });
}

/** SERVICE_RULES_BACKTEST_RATE_LIMIT: backtests per workspace per SERVICE_RULES_BACKTEST_RATE_WINDOW_SECONDS. */
export const backtestRateLimit = () => numberSetting("SERVICE_RULES_BACKTEST_RATE_LIMIT", 10, { min: 1 });
export const backtestRateWindowSeconds = () =>
  numberSetting("SERVICE_RULES_BACKTEST_RATE_WINDOW_SECONDS", 60, { min: 1 });

/** SERVICE_RULES_BACKTEST_MAX_ASSESSMENTS: most recent assessments one backtest evaluates. */
export const backtestMaxAssessments = () =>
  numberSetting("SERVICE_RULES_BACKTEST_MAX_ASSESSMENTS", 200_000, { min: 1 });

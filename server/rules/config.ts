// Rule settings, read at call time so tests and operators can change them without a restart.
import { setting } from "../env";

/** SERVICE_RULES_MAX: how many rules one workspace may hold (default 100). */
export function maxRulesPerWorkspace(): number {
  return setting("SERVICE_RULES_MAX");
}

/** SERVICE_RULES_EVAL_BUDGET_MS: time all rules of one assessment may take; rules past it are reported as skipped. */
export function evaluationBudgetMs(): number {
  return setting("SERVICE_RULES_EVAL_BUDGET_MS");
}

/** SERVICE_RULES_BACKTEST_RATE_LIMIT: backtests per workspace per SERVICE_RULES_BACKTEST_RATE_WINDOW_SECONDS. */
export const backtestRateLimit = () => setting("SERVICE_RULES_BACKTEST_RATE_LIMIT");
export const backtestRateWindowSeconds = () => setting("SERVICE_RULES_BACKTEST_RATE_WINDOW_SECONDS");

/** SERVICE_RULES_BACKTEST_MAX_ASSESSMENTS: most recent assessments one backtest evaluates. */
export const backtestMaxAssessments = () => setting("SERVICE_RULES_BACKTEST_MAX_ASSESSMENTS");

// Scoring in the manner of the Observatory: start at 100, apply every penalty, then the bonuses only when the score
// is at least 90; never below 0. The points of each result come from the scoring table, nothing else.
import { BONUS_THRESHOLD, START_SCORE, gradeOf, outcomeOf, titleOf, type ScanTestId } from "./scoring-table";
import type { Verdict } from "./header-tests";

export type ScoredTest = {
  id: ScanTestId;
  title: string;
  result: string;
  passed: boolean;
  points: number;
  /** False for a bonus that did not count because the score before bonuses was below the threshold. */
  counted: boolean;
  reason: string;
  fix: string | null;
  detail: string | null;
};

export type ScoreSummary = {
  score: number;
  grade: string;
  penalties: number;
  bonuses: number;
  bonusesApplied: boolean;
  tests: ScoredTest[];
};

export function scoreVerdicts(verdicts: { id: ScanTestId; verdict: Verdict }[]): ScoreSummary {
  const rows = verdicts.map(({ id, verdict }) => ({ id, verdict, outcome: outcomeOf(id, verdict.result) }));
  const penalties = rows.reduce((n, r) => n + Math.min(0, r.outcome.points), 0);
  const bonuses = rows.reduce((n, r) => n + Math.max(0, r.outcome.points), 0);
  const base = START_SCORE + penalties;
  const bonusesApplied = base >= BONUS_THRESHOLD;
  const score = Math.max(0, base + (bonusesApplied ? bonuses : 0));
  return {
    score,
    grade: gradeOf(score),
    penalties,
    bonuses,
    bonusesApplied,
    tests: rows.map(({ id, verdict, outcome }) => ({
      id,
      title: titleOf(id),
      result: outcome.result,
      passed: outcome.points >= 0,
      points: outcome.points,
      counted: outcome.points <= 0 || bonusesApplied,
      reason: outcome.reason,
      fix: outcome.fix,
      detail: verdict.detail,
    })),
  };
}

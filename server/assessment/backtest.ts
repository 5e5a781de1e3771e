// Backtest: what a rule would have done to this workspace's past assessments, from the facts stored with each
// assessment event (no upstream is asked again). The candidate takes its place among the workspace's current rules
// by priority; the other rules count as they matched at the time. Outcome labels give its precision (matches that
// were fraud) and recall (labelled fraud it would have caught).
import { bandOf } from "../scoring/score";
import { isFraudLike, outcomesSince } from "./outcomes";
import { storedAssessments } from "./stored";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { Condition } from "../rules/conditions";
import { backtestMaxAssessments } from "../rules/config";
import { compileRule, ruleSource, runRule } from "../rules/evaluate";
import { assertListsExist } from "../lists/lists";
import { currentLookup } from "../lists/lookup";
import { toCelContext } from "../rules/facts";
import type { RuleAction } from "../rules/rules";

export interface BacktestInput {
  workspaceId: string;
  ruleId?: string;
  rule?: { action: RuleAction; priority: number; conditions?: Condition[]; expression?: string };
  since: Date;
  until: Date;
  samples: number;
}

const RISK_DECISION: Record<string, string> = {
  low: bandOf(0).decision,
  medium: bandOf(30).decision,
  high: bandOf(60).decision,
  critical: bandOf(80).decision,
};

type OrderKey = { priority: number; createdAt: Date; id: string };
const precedes = (a: OrderKey, b: OrderKey) =>
  a.priority !== b.priority
    ? a.priority < b.priority
    : a.createdAt.getTime() !== b.createdAt.getTime()
      ? a.createdAt < b.createdAt
      : a.id < b.id;

const ratio = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 10_000) / 10_000);

export async function backtestRule(db: Db, a: BacktestInput) {
  const started = performance.now();
  const current = await db.rule.findMany({
    where: { workspaceId: a.workspaceId },
    select: {
      id: true,
      action: true,
      priority: true,
      createdAt: true,
      enabled: true,
      mode: true,
      conditions: true,
      expression: true,
    },
  });
  const byId = new Map(current.map((r) => [r.id, r]));

  let candidate: OrderKey & { action: string; conditions: unknown; expression: string | null };
  if (a.ruleId) {
    const stored = byId.get(a.ruleId);
    if (!stored) throw new AppError("NOT_FOUND", `No rule ${a.ruleId} in this workspace.`);
    candidate = stored;
  } else {
    // A new rule is the newest: among equal priorities it comes last.
    candidate = {
      id: "",
      priority: a.rule!.priority,
      createdAt: new Date(8.64e15),
      action: a.rule!.action,
      conditions: a.rule!.conditions ?? null,
      expression: a.rule!.expression ?? null,
    };
  }
  const compiled = compileRule(candidate);
  if (!compiled.ok) throw new AppError("INVALID_REQUEST", compiled.message);
  // in_list answers from the workspace's lists as they are now (live items only).
  const source = ruleSource(candidate) ?? "";
  await assertListsExist(db, a.workspaceId, source);
  const lists = source.includes("in_list") ? await currentLookup(db, a.workspaceId) : undefined;

  const outcomes = await outcomesSince(db, { workspaceId: a.workspaceId, since: a.since });
  const limit = backtestMaxAssessments();
  let evaluated = 0;
  let withoutFacts = 0;
  let matched = 0;
  let errors = 0;
  let firstError: string | null = null;
  const samples: string[] = [];
  const changes = new Map<string, number>();
  const labelled = { fraud: 0, legitimate: 0, matched_fraud: 0, matched_legitimate: 0 };
  let seen = 0;

  for await (const s of storedAssessments(db, { workspaceId: a.workspaceId, since: a.since, until: a.until, limit })) {
    seen++;
    if (!s.facts) {
      withoutFacts++;
      continue;
    }
    evaluated++;
    const v = runRule(compiled, toCelContext(s.facts), lists);
    if (v.error) {
      errors++;
      firstError ??= v.error;
    }
    const label = outcomes.get(s.requestId);
    const fraud = label ? isFraudLike(label) : false;
    if (label) fraud ? labelled.fraud++ : labelled.legitimate++;

    const from = s.decision ?? RISK_DECISION[s.riskLevel ?? ""] ?? "allow";
    const deciding = s.rules[0] ? byId.get(s.rules[0]) : undefined;
    let to = from;
    if (v.matched) {
      matched++;
      if (samples.length < a.samples) samples.push(s.requestId);
      if (label) fraud ? labelled.matched_fraud++ : labelled.matched_legitimate++;
      if (!deciding || deciding.id === candidate.id || !precedes(deciding, candidate)) to = candidate.action;
    } else if (s.rules[0] === candidate.id) {
      // It decided then but would not match now: the next rule that matched then decides, else the score.
      const next = s.rules
        .slice(1)
        .map((id) => byId.get(id))
        .find(Boolean);
      to = next?.action ?? RISK_DECISION[s.riskLevel ?? ""] ?? from;
    }
    if (to !== from) changes.set(`${from}>${to}`, (changes.get(`${from}>${to}`) ?? 0) + 1);
  }

  return {
    rule: { id: a.ruleId ?? null, action: candidate.action as RuleAction, expression: ruleSource(candidate) ?? "" },
    since: a.since.toISOString(),
    until: a.until.toISOString(),
    assessments: evaluated,
    without_facts: withoutFacts,
    truncated: seen >= limit,
    matched,
    match_rate: ratio(matched, evaluated),
    decision_changes: [...changes.entries()]
      .map(([k, count]) => {
        const [from, to] = k.split(">") as [RuleAction, RuleAction];
        return { from, to, count };
      })
      .sort((x, y) => y.count - x.count || x.from.localeCompare(y.from) || x.to.localeCompare(y.to)),
    sample_request_ids: samples,
    errors: { count: errors, first: firstError },
    labelled,
    precision: ratio(labelled.matched_fraud, labelled.matched_fraud + labelled.matched_legitimate),
    recall: ratio(labelled.matched_fraud, labelled.fraud),
    duration_ms: Math.round(performance.now() - started),
  };
}

// Aggregate counts and trends for a workspace: endpoint usage from the ledger (always available), and risk
// levels, decisions and top signals from assessment events (when there are any). Every query filters on the
// workspace.
import type { Db } from "../db/client";
import { isFraudLike, outcomesSince } from "../assessment/outcomes";
import { storedAssessments } from "../assessment/stored";
import { LEDGER_ENDPOINT_SQL, LEDGER_REQUESTS_SQL, LEDGER_UNITS_SQL, LEDGER_USAGE_SQL } from "./ledger-counts";
import { monthUsage, type MonthUsage } from "./month-usage";

const RISK = ["low", "medium", "high", "critical"] as const;
/** Most assessments one summary reads for the outcome measures (the newest). */
const QUALITY_MAX = 200_000;
const ratio = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 10_000) / 10_000);

export interface RuleQuality {
  id: string;
  name: string;
  mode: "active" | "shadow";
  action: string;
  matched: number;
  /** Matches where the rule's action differs from the recorded decision (shadow: what it would have changed). */
  differed: number;
  labelledFraud: number;
  labelledLegitimate: number;
  precision: number | null;
  recall: number | null;
}

export interface AnalyticsSummary {
  from: string;
  to: string;
  endpoints: { endpoint: string; requests: number; units: number }[];
  daily: { date: string; requests: number; units: number }[];
  riskLevels: Record<"low" | "medium" | "high" | "critical", number>;
  decisions: Record<"allow" | "review" | "challenge" | "block", number>;
  topSignals: { signal: string; count: number }[];
  events: number;
  labelled: { fraud: number; legitimate: number };
  rules: RuleQuality[];
  riskLevelOutcomes: {
    level: (typeof RISK)[number];
    assessments: number;
    labelledFraud: number;
    labelledLegitimate: number;
    precision: number | null;
    recall: number | null;
  }[];
  signalsByOutcome: Record<"fraud" | "legitimate", { signal: string; count: number; share: number }[]>;
  /** This UTC month's usage per API key and per endpoint. */
  thisMonth: MonthUsage;
}

export async function analyticsSummary(
  db: Db,
  a: { workspaceId: string; days: number; now?: Date },
): Promise<AnalyticsSummary> {
  const now = a.now ?? new Date();
  const from = new Date(now.getTime() - a.days * 86_400_000);
  const [endpoints, daily, events, thisMonth] = await Promise.all([
    db.$queryRawUnsafe<{ endpoint: string; requests: bigint | number; units: bigint | number }[]>(
      `SELECT ${LEDGER_ENDPOINT_SQL} AS "endpoint", ${LEDGER_REQUESTS_SQL} AS "requests", ${LEDGER_UNITS_SQL} AS "units"
         FROM "UsageLedger" WHERE "workspaceId" = $1 AND "createdAt" >= $2::timestamp(3) AND ${LEDGER_USAGE_SQL}
        GROUP BY 1 ORDER BY ${LEDGER_UNITS_SQL} DESC, 1`,
      a.workspaceId,
      from,
    ),
    db.$queryRawUnsafe<{ day: string; requests: bigint | number; units: bigint | number }[]>(
      `SELECT to_char(date_trunc('day', "createdAt"), 'YYYY-MM-DD') AS "day", ${LEDGER_REQUESTS_SQL} AS "requests", ${LEDGER_UNITS_SQL} AS "units"
         FROM "UsageLedger" WHERE "workspaceId" = $1 AND "createdAt" >= $2::timestamp(3) AND ${LEDGER_USAGE_SQL}
        GROUP BY 1 ORDER BY 1`,
      a.workspaceId,
      from,
    ),
    db.event.findMany({
      where: { workspaceId: a.workspaceId, createdAt: { gte: from } },
      select: { type: true, data: true },
      take: 10_000,
    }),
    monthUsage(db, { workspaceId: a.workspaceId, now }),
  ]);
  const riskLevels = { low: 0, medium: 0, high: 0, critical: 0 };
  const decisions = { allow: 0, review: 0, challenge: 0, block: 0 };
  const signals = new Map<string, number>();
  for (const e of events) {
    const d = (e.data ?? {}) as {
      risk_level?: string;
      decision?: string;
      signals?: { name?: string; code?: string }[];
    };
    if (d.risk_level && d.risk_level in riskLevels) riskLevels[d.risk_level as keyof typeof riskLevels]++;
    if (d.decision && d.decision in decisions) decisions[d.decision as keyof typeof decisions]++;
    for (const s of Array.isArray(d.signals) ? d.signals : []) {
      const name = s?.code ?? s?.name;
      if (name) signals.set(name, (signals.get(name) ?? 0) + 1);
    }
  }
  const quality = await outcomeQuality(db, { workspaceId: a.workspaceId, from, to: now });
  return {
    from: from.toISOString(),
    to: now.toISOString(),
    endpoints: endpoints.map((r) => ({ endpoint: r.endpoint, requests: Number(r.requests), units: Number(r.units) })),
    daily: daily.map((r) => ({ date: r.day, requests: Number(r.requests), units: Number(r.units) })),
    riskLevels,
    thisMonth,
    decisions,
    topSignals: [...signals.entries()]
      .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
      .slice(0, 10)
      .map(([signal, count]) => ({ signal, count })),
    events: events.length,
    ...quality,
  };
}

/**
 * Measures from outcome labels: precision and recall per rule (active and shadow) and per risk level, and the
 * signals most common in fraud and in legitimate traffic. Also how often each rule matched and how often its
 * action differed from the decision.
 */
async function outcomeQuality(db: Db, a: { workspaceId: string; from: Date; to: Date }) {
  const [rules, outcomes] = await Promise.all([
    db.rule.findMany({
      where: { workspaceId: a.workspaceId },
      select: { id: true, name: true, mode: true, action: true },
      orderBy: [{ priority: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    }),
    outcomesSince(db, { workspaceId: a.workspaceId, since: a.from }),
  ]);
  const perRule = new Map(rules.map((r) => [r.id, { matched: 0, differed: 0, fraud: 0, legit: 0 }]));
  const perLevel = new Map(RISK.map((l) => [l as string, { assessments: 0, fraud: 0, legit: 0 }]));
  const signals = { fraud: new Map<string, number>(), legitimate: new Map<string, number>() };
  const labelled = { fraud: 0, legitimate: 0 };
  const actionOf = new Map(rules.map((r) => [r.id, r.action]));

  for await (const s of storedAssessments(db, {
    workspaceId: a.workspaceId,
    since: a.from,
    until: new Date(a.to.getTime() + 1),
    limit: QUALITY_MAX,
    withFacts: false,
  })) {
    const label = outcomes.get(s.requestId);
    const kind = label ? (isFraudLike(label) ? "fraud" : "legitimate") : null;
    if (kind) labelled[kind]++;
    const level = perLevel.get(s.riskLevel ?? "");
    if (level) {
      level.assessments++;
      if (kind === "fraud") level.fraud++;
      if (kind === "legitimate") level.legit++;
    }
    if (kind) for (const code of new Set(s.signals)) signals[kind].set(code, (signals[kind].get(code) ?? 0) + 1);
    const hits = [...s.rules.map((id) => ({ id, action: actionOf.get(id) })), ...s.shadowRules];
    for (const h of hits) {
      const r = perRule.get(h.id);
      if (!r) continue;
      r.matched++;
      if (h.action && h.action !== s.decision) r.differed++;
      if (kind === "fraud") r.fraud++;
      if (kind === "legitimate") r.legit++;
    }
  }
  const top = (m: Map<string, number>, of: number) =>
    [...m.entries()]
      .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
      .slice(0, 10)
      .map(([signal, count]) => ({ signal, count, share: ratio(count, of) ?? 0 }));
  return {
    labelled,
    rules: rules.map((r) => {
      const q = perRule.get(r.id)!;
      return {
        id: r.id,
        name: r.name,
        mode: (r.mode === "shadow" ? "shadow" : "active") as "active" | "shadow",
        action: r.action,
        matched: q.matched,
        differed: q.differed,
        labelledFraud: q.fraud,
        labelledLegitimate: q.legit,
        precision: ratio(q.fraud, q.fraud + q.legit),
        recall: ratio(q.fraud, labelled.fraud),
      };
    }),
    riskLevelOutcomes: RISK.map((level) => {
      const q = perLevel.get(level)!;
      return {
        level,
        assessments: q.assessments,
        labelledFraud: q.fraud,
        labelledLegitimate: q.legit,
        precision: ratio(q.fraud, q.fraud + q.legit),
        recall: ratio(q.fraud, labelled.fraud),
      };
    }),
    signalsByOutcome: {
      fraud: top(signals.fraud, labelled.fraud),
      legitimate: top(signals.legitimate, labelled.legitimate),
    },
  };
}

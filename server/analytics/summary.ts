// Aggregate counts and trends for a workspace: endpoint usage from the ledger (always available), and risk
// levels, decisions and top signals from assessment events (when there are any). Every query filters on the
// workspace.
import type { Db } from "../db/client";

export interface AnalyticsSummary {
  from: string;
  to: string;
  endpoints: { endpoint: string; requests: number; units: number }[];
  daily: { date: string; requests: number; units: number }[];
  riskLevels: Record<"low" | "medium" | "high" | "critical", number>;
  decisions: Record<"allow" | "review" | "challenge" | "block", number>;
  topSignals: { signal: string; count: number }[];
  events: number;
}

export async function analyticsSummary(db: Db, a: { workspaceId: string; days: number; now?: Date }): Promise<AnalyticsSummary> {
  const now = a.now ?? new Date();
  const from = new Date(now.getTime() - a.days * 86_400_000);
  const [endpoints, daily, events] = await Promise.all([
    db.$queryRawUnsafe<{ endpoint: string; requests: bigint | number; units: bigint | number }[]>(
      `SELECT "endpoint", count(*) AS "requests", sum("units") AS "units" FROM "UsageLedger"
        WHERE "workspaceId" = $1 AND "createdAt" >= $2::timestamp(3) AND "endpoint" <> 'admin.usage.adjust'
        GROUP BY "endpoint" ORDER BY sum("units") DESC, "endpoint"`,
      a.workspaceId,
      from,
    ),
    db.$queryRawUnsafe<{ day: string; requests: bigint | number; units: bigint | number }[]>(
      `SELECT to_char(date_trunc('day', "createdAt"), 'YYYY-MM-DD') AS "day", count(*) AS "requests", sum("units") AS "units"
         FROM "UsageLedger" WHERE "workspaceId" = $1 AND "createdAt" >= $2::timestamp(3) AND "endpoint" <> 'admin.usage.adjust'
        GROUP BY 1 ORDER BY 1`,
      a.workspaceId,
      from,
    ),
    db.event.findMany({ where: { workspaceId: a.workspaceId, createdAt: { gte: from } }, select: { type: true, data: true }, take: 10_000 }),
  ]);
  const riskLevels = { low: 0, medium: 0, high: 0, critical: 0 };
  const decisions = { allow: 0, review: 0, challenge: 0, block: 0 };
  const signals = new Map<string, number>();
  for (const e of events) {
    const d = (e.data ?? {}) as { risk_level?: string; decision?: string; signals?: { name?: string; code?: string }[] };
    if (d.risk_level && d.risk_level in riskLevels) riskLevels[d.risk_level as keyof typeof riskLevels]++;
    if (d.decision && d.decision in decisions) decisions[d.decision as keyof typeof decisions]++;
    for (const s of Array.isArray(d.signals) ? d.signals : []) {
      const name = s?.code ?? s?.name;
      if (name) signals.set(name, (signals.get(name) ?? 0) + 1);
    }
  }
  return {
    from: from.toISOString(),
    to: now.toISOString(),
    endpoints: endpoints.map((r) => ({ endpoint: r.endpoint, requests: Number(r.requests), units: Number(r.units) })),
    daily: daily.map((r) => ({ date: r.day, requests: Number(r.requests), units: Number(r.units) })),
    riskLevels,
    decisions,
    topSignals: [...signals.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])).slice(0, 10).map(([signal, count]) => ({ signal, count })),
    events: events.length,
  };
}

// Per-day series for the analytics charts, read by API users and the dashboard alike: units per endpoint and per
// key from the usage ledger, assessments per risk level and decision from assessment events, the top signals and
// matched rules, and the failure rates of the work the service records per item (bulk job items, webhook
// deliveries), and what the workspace's requests were answered (requests, 4xx and 5xx per day, per endpoint, the
// top error statuses; server/analytics/request-outcomes.ts). Every query filters on the workspace; other
// workspaces' keys and rules are never named.
import type { Db } from "../db/client";
import { LEDGER_ENDPOINT_SQL, LEDGER_REQUESTS_SQL, LEDGER_UNITS_SQL, LEDGER_USAGE_SQL } from "./ledger-counts";
import { isKeyPayer, PAYER_SQL, payerName } from "./payers";
import type { AnalyticsRange } from "./range";
import {
  DASHBOARD_KEY,
  requestOutcomesOfRange,
  type OutcomeCounts,
  type RequestOutcomesOfRange,
} from "./request-outcomes";

export { DASHBOARD_KEY };
const RISK = ["low", "medium", "high", "critical"] as const;
const DECISIONS = ["allow", "review", "challenge", "block"] as const;
const TOP = 10;

type Count = bigint | number;
const n = (v: Count | null | undefined) => Number(v ?? 0);
const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 10_000) / 10_000);
const DAY_SQL = `to_char("createdAt", 'YYYY-MM-DD')`;
/** A JSON array field of the event's data, or an empty array when it is missing or not an array. */
const arrayOf = (field: string) =>
  `CASE WHEN jsonb_typeof("data"->'${field}') = 'array' THEN "data"->'${field}' ELSE '[]'::jsonb END`;

export interface DayErrors {
  bulkItems: number;
  bulkItemsFailed: number;
  webhookDeliveries: number;
  webhookDeliveriesFailed: number;
  rate: number | null;
}

export interface AnalyticsDay {
  date: string;
  requests: number;
  units: number;
  unitsByEndpoint: Record<string, number>;
  unitsByKey: Record<string, number>;
  assessments: number;
  riskLevels: Record<(typeof RISK)[number], number>;
  decisions: Record<(typeof DECISIONS)[number], number>;
  errors: DayErrors;
  /** Every answer given to the workspace's authenticated requests that day, with its 4xx and 5xx. */
  responses: OutcomeCounts;
}

export interface AnalyticsTimeseries {
  since: string;
  until: string;
  totals: { requests: number; units: number; assessments: number } & DayErrors;
  endpoints: { endpoint: string; requests: number; units: number }[];
  keys: { key: string; name: string; prefix: string | null; status: string | null; requests: number; units: number }[];
  daily: AnalyticsDay[];
  topSignals: { signal: string; count: number }[];
  topRules: {
    id: string;
    name: string | null;
    mode: "active" | "shadow" | null;
    matched: number;
    shadowMatched: number;
  }[];
  responses: Omit<RequestOutcomesOfRange, "daily">;
}

export async function analyticsTimeseries(
  db: Db,
  a: { workspaceId: string; range: AnalyticsRange },
): Promise<AnalyticsTimeseries> {
  const p = [a.workspaceId, a.range.since, a.range.until] as const;
  const inRange = `"workspaceId" = $1 AND "createdAt" >= $2::timestamp(3) AND "createdAt" < $3::timestamp(3)`;
  const assessments = `${inRange} AND "type" = 'assessment'`;
  const [usage, outcomes, signals, ruleHits, bulk, deliveries, responses] = await Promise.all([
    // Refunds (negative rows) lower the units of their day, as they lower the month's meter; they are not requests
    // (./ledger-counts.ts).
    db.$queryRawUnsafe<{ day: string; endpoint: string; key: string | null; requests: Count; units: Count }[]>(
      `SELECT ${DAY_SQL} AS "day", ${LEDGER_ENDPOINT_SQL} AS "endpoint", ${PAYER_SQL} AS "key", ${LEDGER_REQUESTS_SQL} AS "requests", ${LEDGER_UNITS_SQL} AS "units"
         FROM "UsageLedger" WHERE ${inRange} AND ${LEDGER_USAGE_SQL} GROUP BY 1, 2, 3`,
      ...p,
    ),
    db.$queryRawUnsafe<{ day: string; risk: string | null; decision: string | null; count: Count }[]>(
      `SELECT ${DAY_SQL} AS "day", "data"->>'risk_level' AS "risk", "data"->>'decision' AS "decision", count(*) AS "count"
         FROM "Event" WHERE ${assessments} GROUP BY 1, 2, 3`,
      ...p,
    ),
    db.$queryRawUnsafe<{ signal: string; count: Count }[]>(
      `SELECT "signal", count(*) AS "count" FROM (
         SELECT DISTINCT "Event"."id", COALESCE(s->>'code', s->>'name') AS "signal"
           FROM "Event", jsonb_array_elements(${arrayOf("signals")}) AS s WHERE ${assessments}) AS x
        WHERE "signal" IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${TOP}`,
      ...p,
    ),
    db.$queryRawUnsafe<{ id: string; shadow: boolean; count: Count }[]>(
      `SELECT r AS "id", false AS "shadow", count(*) AS "count" FROM "Event", jsonb_array_elements_text(${arrayOf("rules")}) AS r WHERE ${assessments} GROUP BY 1
       UNION ALL
       SELECT s->>'id' AS "id", true AS "shadow", count(*) AS "count" FROM "Event", jsonb_array_elements(${arrayOf("shadow_rules")}) AS s
        WHERE ${assessments} AND s->>'id' IS NOT NULL GROUP BY 1`,
      ...p,
    ),
    db.$queryRawUnsafe<{ day: string; total: Count; failed: Count }[]>(
      `SELECT to_char(i."finishedAt", 'YYYY-MM-DD') AS "day", count(*) AS "total", count(*) FILTER (WHERE i."status" = 'failed') AS "failed"
         FROM "BulkItem" i JOIN "BulkJob" j ON j."id" = i."jobId"
        WHERE j."workspaceId" = $1 AND i."finishedAt" >= $2::timestamp(3) AND i."finishedAt" < $3::timestamp(3) AND i."status" IN ('succeeded', 'failed')
        GROUP BY 1`,
      ...p,
    ),
    db.$queryRawUnsafe<{ day: string; total: Count; failed: Count }[]>(
      `SELECT ${DAY_SQL} AS "day", count(*) AS "total", count(*) FILTER (WHERE "status" = 'failed') AS "failed"
         FROM "WebhookDelivery" WHERE ${inRange} AND "status" IN ('delivered', 'failed') GROUP BY 1`,
      ...p,
    ),
    requestOutcomesOfRange(db, { workspaceId: a.workspaceId, dates: a.range.dates }),
  ]);

  const days = new Map<string, AnalyticsDay>(a.range.dates.map((date) => [date, emptyDay(date)]));
  const endpoints = new Map<string, { requests: number; units: number }>();
  const keys = new Map<string, { requests: number; units: number }>();
  const add = (m: Map<string, { requests: number; units: number }>, k: string, requests: number, units: number) => {
    const t = m.get(k) ?? { requests: 0, units: 0 };
    t.requests += requests;
    t.units += units;
    m.set(k, t);
  };
  for (const r of usage) {
    const d = days.get(r.day);
    if (!d) continue;
    const key = r.key ?? DASHBOARD_KEY;
    const [requests, units] = [n(r.requests), n(r.units)];
    d.requests += requests;
    d.units += units;
    d.unitsByEndpoint[r.endpoint] = (d.unitsByEndpoint[r.endpoint] ?? 0) + units;
    d.unitsByKey[key] = (d.unitsByKey[key] ?? 0) + units;
    add(endpoints, r.endpoint, requests, units);
    add(keys, key, requests, units);
  }
  for (const r of outcomes) {
    const d = days.get(r.day);
    if (!d) continue;
    const c = n(r.count);
    d.assessments += c;
    if (r.risk && r.risk in d.riskLevels) d.riskLevels[r.risk as keyof AnalyticsDay["riskLevels"]] += c;
    if (r.decision && r.decision in d.decisions) d.decisions[r.decision as keyof AnalyticsDay["decisions"]] += c;
  }
  for (const [rows, total, failed] of [
    [bulk, "bulkItems", "bulkItemsFailed"],
    [deliveries, "webhookDeliveries", "webhookDeliveriesFailed"],
  ] as const) {
    for (const r of rows) {
      const d = days.get(r.day);
      if (!d) continue;
      d.errors[total] += n(r.total);
      d.errors[failed] += n(r.failed);
    }
  }
  const daily = [...days.values()];
  for (const d of daily) {
    d.errors.rate = errorRate(d.errors);
    d.responses = responses.daily.get(d.date) ?? d.responses;
  }

  const [keyRows, rules] = await Promise.all([
    db.apiKey.findMany({
      where: { workspaceId: a.workspaceId, id: { in: [...keys.keys()].filter(isKeyPayer) } },
      select: { id: true, name: true, prefix: true, status: true },
    }),
    topRules(db, a.workspaceId, ruleHits),
  ]);
  const keyInfo = new Map(keyRows.map((k) => [k.id, k]));
  const sum = (f: (d: AnalyticsDay) => number) => daily.reduce((s, d) => s + f(d), 0);
  const errors = {
    bulkItems: sum((d) => d.errors.bulkItems),
    bulkItemsFailed: sum((d) => d.errors.bulkItemsFailed),
    webhookDeliveries: sum((d) => d.errors.webhookDeliveries),
    webhookDeliveriesFailed: sum((d) => d.errors.webhookDeliveriesFailed),
  };
  const byUnits = (x: { units: number; label: string }, y: { units: number; label: string }) =>
    y.units - x.units || x.label.localeCompare(y.label);
  return {
    since: a.range.since.toISOString(),
    until: a.range.until.toISOString(),
    totals: {
      requests: sum((d) => d.requests),
      units: sum((d) => d.units),
      assessments: sum((d) => d.assessments),
      ...errors,
      rate: errorRate(errors),
    },
    endpoints: [...endpoints.entries()]
      .map(([endpoint, t]) => ({ label: endpoint, endpoint, ...t }))
      .sort(byUnits)
      .map(({ endpoint, requests, units }) => ({ endpoint, requests, units })),
    keys: [...keys.entries()]
      .map(([key, t]) => {
        const k = keyInfo.get(key);
        return {
          label: key,
          key,
          name: payerName(key, k?.name),
          prefix: k?.prefix ?? null,
          status: k?.status ?? null,
          ...t,
        };
      })
      .sort(byUnits)
      .map(({ label: _, ...k }) => k),
    daily,
    topSignals: signals.map((s) => ({ signal: s.signal, count: n(s.count) })),
    topRules: rules,
    responses: { totals: responses.totals, endpoints: responses.endpoints, topErrors: responses.topErrors },
  };
}

function emptyDay(date: string): AnalyticsDay {
  return {
    date,
    requests: 0,
    units: 0,
    unitsByEndpoint: {},
    unitsByKey: {},
    assessments: 0,
    riskLevels: { low: 0, medium: 0, high: 0, critical: 0 },
    decisions: { allow: 0, review: 0, challenge: 0, block: 0 },
    errors: { bulkItems: 0, bulkItemsFailed: 0, webhookDeliveries: 0, webhookDeliveriesFailed: 0, rate: null },
    responses: { requests: 0, clientErrors: 0, serverErrors: 0, clientErrorRate: null, serverErrorRate: null },
  };
}

function errorRate(e: Omit<DayErrors, "rate">): number | null {
  return ratio(e.bulkItemsFailed + e.webhookDeliveriesFailed, e.bulkItems + e.webhookDeliveries);
}

/** The most matched rules (active and shadow matches together), named only when the rule is this workspace's. */
async function topRules(db: Db, workspaceId: string, hits: { id: string; shadow: boolean; count: Count }[]) {
  const per = new Map<string, { matched: number; shadowMatched: number }>();
  for (const h of hits) {
    const t = per.get(h.id) ?? { matched: 0, shadowMatched: 0 };
    if (h.shadow) t.shadowMatched += n(h.count);
    else t.matched += n(h.count);
    per.set(h.id, t);
  }
  const top = [...per.entries()]
    .sort((x, y) => y[1].matched + y[1].shadowMatched - (x[1].matched + x[1].shadowMatched) || x[0].localeCompare(y[0]))
    .slice(0, TOP);
  const rules = await db.rule.findMany({
    where: { workspaceId, id: { in: top.map(([id]) => id) } },
    select: { id: true, name: true, mode: true },
  });
  const byId = new Map(rules.map((r) => [r.id, r]));
  return top.map(([id, t]) => {
    const r = byId.get(id);
    return {
      id,
      name: r?.name ?? null,
      mode: r ? ((r.mode === "shadow" ? "shadow" : "active") as "active" | "shadow") : null,
      ...t,
    };
  });
}

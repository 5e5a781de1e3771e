"use client";
// Analytics (GET /v1/analytics/timeseries through the dashboard door, so the numbers are the API's): totals first,
// then units per day by endpoint and by key, assessments per day by risk level and decision, top signals and
// rules, and the failure rate of bulk items and webhook deliveries, for a chosen range of UTC days.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "../../../server/api/root";
import { ErrorNote } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { DailyStackedChart, groupValues, RateLineChart, topSeries, TopBarChart, type Series } from "./charts";

const RANGES = [
  { value: "7", label: "Last 7 days" },
  { value: "30", label: "Last 30 days" },
  { value: "90", label: "Last 90 days" },
  { value: "365", label: "Last 365 days" },
  { value: "custom", label: "Custom dates" },
] as const;

const RISK: Series[] = [
  { key: "low", label: "Low", color: "#16a34a" },
  { key: "medium", label: "Medium", color: "#ca8a04" },
  { key: "high", label: "High", color: "#ea580c" },
  { key: "critical", label: "Critical", color: "#b91c1c" },
];
const DECISIONS: Series[] = [
  { key: "allow", label: "Allow", color: "#16a34a" },
  { key: "review", label: "Review", color: "#2563eb" },
  { key: "challenge", label: "Challenge", color: "#ca8a04" },
  { key: "block", label: "Block", color: "#b91c1c" },
];

const fmt = new Intl.NumberFormat("en-US");
const today = () => new Date().toISOString().slice(0, 10);
const daysBefore = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

type RangeInput = { days: number } | { since: string; until: string };

function rangeInput(range: string, from: string, to: string): RangeInput {
  if (range !== "custom") return { days: Number(range) };
  // The "to" day is shown inclusive; the API's until is exclusive.
  return { since: from, until: to ? daysBefore(to, -1) : "" };
}

export function AnalyticsView() {
  const trpc = useTRPC();
  const [range, setRange] = useState("30");
  const [from, setFrom] = useState(() => daysBefore(today(), 13));
  const [to, setTo] = useState(today);
  const input = rangeInput(range, from, to);
  const q = useQuery({ ...trpc.workspace.analyticsTimeseries.queryOptions(input), placeholderData: keepPreviousData, retry: false });
  const data = q.data;

  return (
    <>
      <h1>Analytics</h1>
      <p className="muted small">
        Lookup units, assessments and failures per UTC day: the same numbers as <code>GET /v1/analytics/timeseries</code>.
      </p>
      <form className="card range-form" aria-label="Time range" onSubmit={(e) => e.preventDefault()}>
        <label>
          Time range
          <select value={range} onChange={(e) => setRange(e.target.value)} data-testid="analytics-range">
            {RANGES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        {range === "custom" ? (
          <>
            <label>
              From
              <input type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} data-testid="analytics-from" />
            </label>
            <label>
              To (inclusive)
              <input type="date" value={to} onChange={(e) => setTo(e.target.value)} data-testid="analytics-to" />
            </label>
          </>
        ) : null}
        {q.isFetching && data ? (
          <span className="muted small" role="status">
            Updating…
          </span>
        ) : null}
      </form>

      <ErrorNote error={q.error} />
      {q.isPending && !q.error ? (
        <p className="muted" role="status" data-testid="analytics-loading">
          Loading analytics…
        </p>
      ) : null}
      {data ? <AnalyticsBody data={data} /> : null}
    </>
  );
}

type Timeseries = inferRouterOutputs<AppRouter>["workspace"]["analyticsTimeseries"];

function AnalyticsBody({ data }: { data: Timeseries }) {
  const t = data.totals;
  const quiet = t.requests === 0 && t.units === 0 && t.assessments === 0 && t.bulkItems === 0 && t.webhookDeliveries === 0;
  const byEndpoint = topSeries(data.endpoints.map((e) => ({ key: e.endpoint, label: e.endpoint, value: e.units })));
  const byKey = topSeries(data.keys.map((k) => ({ key: k.key, label: k.prefix ? `${k.name} (${k.prefix}…)` : k.name, value: k.units })));
  const finished = t.bulkItems + t.webhookDeliveries;
  return (
    <>
      <section aria-label="Totals for the range" className="totals" data-testid="analytics-totals">
        <Total label="Lookup units" value={fmt.format(t.units)} testId="total-units" />
        <Total label="Metered requests" value={fmt.format(t.requests)} testId="total-requests" />
        <Total label="Assessments" value={fmt.format(t.assessments)} testId="total-assessments" />
        <Total
          label={`Failure rate (${fmt.format(t.bulkItemsFailed + t.webhookDeliveriesFailed)} of ${fmt.format(finished)} bulk items and webhook deliveries)`}
          value={t.rate === null ? "—" : `${(t.rate * 100).toFixed(1)} %`}
          testId="total-failure-rate"
        />
      </section>
      {quiet ? (
        <p className="card muted small" data-testid="analytics-empty">
          Nothing happened in this range yet. Lookups and assessments made with an API key or in the dashboard appear here within seconds.
        </p>
      ) : null}
      <div className="chart-grid">
        <DailyStackedChart
          id="units-endpoint"
          title="Units per day by endpoint"
          unit="units"
          series={byEndpoint.series}
          days={data.daily.map((d) => ({ date: d.date, values: groupValues(d.unitsByEndpoint, byEndpoint.rest) }))}
          emptyText="No lookup units used in this range."
        />
        <DailyStackedChart
          id="units-key"
          title="Units per day by key"
          unit="units"
          series={byKey.series}
          days={data.daily.map((d) => ({ date: d.date, values: groupValues(d.unitsByKey, byKey.rest) }))}
          emptyText="No lookup units used in this range."
        />
        <DailyStackedChart
          id="risk"
          title="Assessments per day by risk level"
          unit="assessments"
          series={RISK}
          days={data.daily.map((d) => ({ date: d.date, values: d.riskLevels }))}
          emptyText="No assessments in this range."
        />
        <DailyStackedChart
          id="decisions"
          title="Assessments per day by decision"
          unit="assessments"
          series={DECISIONS}
          days={data.daily.map((d) => ({ date: d.date, values: d.decisions }))}
          emptyText="No assessments in this range."
        />
        <TopBarChart id="signals" title="Top signals" unit="Assessments" rows={data.topSignals.map((s) => ({ label: s.signal, value: s.count }))} emptyText="No signals in this range's assessments." />
        <TopBarChart
          id="rules"
          title="Top matched rules"
          unit="Matches"
          color="#7c3aed"
          rows={data.topRules.map((r) => ({ label: `${r.name ?? "Deleted rule"}${r.mode === "shadow" || (r.shadowMatched > 0 && r.matched === 0) ? " (shadow)" : ""}`, value: r.matched + r.shadowMatched }))}
          emptyText="No rule matched in this range."
        />
        <RateLineChart
          id="failures"
          title="Failure rate per day"
          note="Bulk job items and webhook deliveries that failed, of those that finished that day."
          days={data.daily.map((d) => ({ date: d.date, rate: d.errors.rate, failed: d.errors.bulkItemsFailed + d.errors.webhookDeliveriesFailed, finished: d.errors.bulkItems + d.errors.webhookDeliveries }))}
          emptyText="No bulk job items or webhook deliveries finished in this range."
        />
      </div>
    </>
  );
}

function Total({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="total-card">
      <span className="total-value" data-testid={testId}>
        {value}
      </span>
      <span className="total-label">{label}</span>
    </div>
  );
}

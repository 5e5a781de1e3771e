"use client";
// The analytics page's numbers for the chosen range: the totals, then the charts (units by endpoint and by key,
// assessments by risk level and decision, top signals and rules, failure and request error rates) and the error
// tables, each chart with its empty-range sentence.
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/api/root";
import { endpointLabel } from "../_components/endpoint-names";
import { signalName } from "../_components/signal-names";
import type { Series } from "./chart-frame";
import { DailyStackedChart, groupValues, topSeries, TopBarChart } from "./charts";
import { ErrorRateChart, RateLineChart } from "./rate-charts";
import { EndpointErrors, percent, TopErrors } from "./ErrorTables";
import type { ProcedureName } from "./procedure-names";

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

type Timeseries = inferRouterOutputs<AppRouter>["workspace"]["analyticsTimeseries"];

export function AnalyticsBody({ data, procedures }: { data: Timeseries; procedures: Record<string, ProcedureName> }) {
  const t = data.totals;
  const answered = data.responses.totals;
  const quiet =
    t.requests === 0 &&
    t.units === 0 &&
    t.assessments === 0 &&
    t.bulkItems === 0 &&
    t.webhookDeliveries === 0 &&
    answered.requests === 0;
  const byEndpoint = topSeries(
    data.endpoints.map((e) => ({ key: e.endpoint, label: endpointLabel(e.endpoint), value: e.units })),
  );
  const byKey = topSeries(
    data.keys.map((k) => ({ key: k.key, label: k.prefix ? `${k.name} (${k.prefix}…)` : k.name, value: k.units })),
  );
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
        <Total
          label={`Request error rate (${fmt.format(answered.clientErrors + answered.serverErrors)} of ${fmt.format(answered.requests)} requests refused or failed)`}
          value={
            answered.requests === 0 ? "—" : percent((answered.clientErrors + answered.serverErrors) / answered.requests)
          }
          testId="total-error-rate"
        />
      </section>
      {quiet ? (
        <p className="card muted small" data-testid="analytics-empty">
          Nothing happened in this range yet. Lookups and assessments made with an API key or in the dashboard appear
          here within seconds.
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
        <TopBarChart
          id="signals"
          title="Top signals"
          unit="Assessments"
          rows={data.topSignals.map((s) => ({
            label: signalName(s.signal) ?? s.signal,
            detail: s.signal,
            value: s.count,
          }))}
          emptyText="No signals in this range's assessments."
        />
        <TopBarChart
          id="rules"
          title="Top matched rules"
          unit="Matches"
          color="#7c3aed"
          rows={data.topRules.map((r) => ({
            label: `${r.name ?? "Deleted rule"}${r.mode === "shadow" || (r.shadowMatched > 0 && r.matched === 0) ? " (shadow)" : ""}`,
            value: r.matched + r.shadowMatched,
          }))}
          emptyText="No rule matched in this range."
        />
        <RateLineChart
          id="failures"
          title="Failure rate per day"
          note="Bulk job items and webhook deliveries that failed, of those that finished that day."
          days={data.daily.map((d) => ({
            date: d.date,
            rate: d.errors.rate,
            failed: d.errors.bulkItemsFailed + d.errors.webhookDeliveriesFailed,
            finished: d.errors.bulkItems + d.errors.webhookDeliveries,
          }))}
          emptyText="No bulk job items or webhook deliveries finished in this range."
        />
        <ErrorRateChart
          id="request-errors"
          title="Request error rate per day"
          note="Share of the requests made with this workspace's API keys and in the dashboard that were refused (4xx) or failed on our side (5xx)."
          days={data.daily.map((d) => ({ date: d.date, ...d.responses }))}
          emptyText="No requests in this range."
        />
        <TopErrors errors={data.responses.topErrors} requests={answered.requests} />
      </div>
      <EndpointErrors endpoints={data.responses.endpoints} procedures={procedures} />
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

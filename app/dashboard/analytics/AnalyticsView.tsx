"use client";
// Analytics (GET /v1/analytics/timeseries through the dashboard's tRPC endpoint, so the numbers are the API's): totals first,
// then units per day by endpoint and by key, assessments per day by risk level and decision, top signals and
// rules, the failure rate of bulk items and webhook deliveries, and the error rate of the workspace's own requests
// (4xx and 5xx per day, the top error statuses in words, the endpoints with the most errors), for a chosen range of
// UTC days.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "../../../server/api/root";
import { ErrorNote } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import {
  DailyStackedChart,
  ErrorRateChart,
  groupValues,
  RateLineChart,
  topSeries,
  TopBarChart,
  type Series,
} from "./charts";
import type { ProcedureName } from "./procedure-names";
import { statusInWords } from "./status-words";

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
const daysBefore = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

type RangeInput = { days: number } | { since: string; until: string };

function rangeInput(range: string, from: string, to: string): RangeInput {
  if (range !== "custom") return { days: Number(range) };
  // The "to" day is shown inclusive; the API's until is exclusive.
  return { since: from, until: to ? daysBefore(to, -1) : "" };
}

export function AnalyticsView({ procedures = {} }: { procedures?: Record<string, ProcedureName> }) {
  const trpc = useTRPC();
  const [range, setRange] = useState("30");
  const [from, setFrom] = useState(() => daysBefore(today(), 13));
  const [to, setTo] = useState(today);
  const input = rangeInput(range, from, to);
  const q = useQuery({
    ...trpc.workspace.analyticsTimeseries.queryOptions(input),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const data = q.data;

  return (
    <>
      <h1>Analytics</h1>
      <p className="muted small">
        Lookup units, assessments, failures and request errors per UTC day: the same numbers as{" "}
        <code>GET /v1/analytics/timeseries</code>.
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
              <input
                type="date"
                value={from}
                max={to || undefined}
                onChange={(e) => setFrom(e.target.value)}
                data-testid="analytics-from"
              />
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
      {data ? <AnalyticsBody data={data} procedures={procedures} /> : null}
    </>
  );
}

type Timeseries = inferRouterOutputs<AppRouter>["workspace"]["analyticsTimeseries"];

function AnalyticsBody({ data, procedures }: { data: Timeseries; procedures: Record<string, ProcedureName> }) {
  const t = data.totals;
  const answered = data.responses.totals;
  const quiet =
    t.requests === 0 &&
    t.units === 0 &&
    t.assessments === 0 &&
    t.bulkItems === 0 &&
    t.webhookDeliveries === 0 &&
    answered.requests === 0;
  const byEndpoint = topSeries(data.endpoints.map((e) => ({ key: e.endpoint, label: e.endpoint, value: e.units })));
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
          rows={data.topSignals.map((s) => ({ label: s.signal, value: s.count }))}
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

const percent = (r: number) => `${(r * 100).toFixed(1)} %`;

/** The range's most frequent error statuses, each with what it means ("402 Out of lookup units"). */
function TopErrors({ errors, requests }: { errors: Timeseries["responses"]["topErrors"]; requests: number }) {
  return (
    <section className="card chart-card" aria-labelledby="top-errors-title" data-testid="top-errors">
      <h2 id="top-errors-title">Top error statuses</h2>
      {errors.length === 0 ? (
        <p className="muted small chart-empty" data-testid="top-errors-empty">
          {requests === 0 ? "No requests in this range." : "No request was refused or failed in this range."}
        </p>
      ) : (
        <div
          className="chart-table-scroll"
          tabIndex={0}
          role="region"
          aria-label="Top error statuses (scrolls sideways)"
        >
          <table className="list">
            <caption className="visually-hidden">
              The most frequent error statuses of the range, with the requests answered with each
            </caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Requests</th>
                <th scope="col">Share of all requests</th>
              </tr>
            </thead>
            <tbody>
              {errors.map((e) => (
                <tr key={`${e.status} ${e.code ?? ""}`} data-testid={`top-error-${e.status}`}>
                  <th scope="row">{statusInWords(e.status, e.code)}</th>
                  <td className="num">{fmt.format(e.requests)}</td>
                  <td className="num">{requests === 0 ? "—" : percent(e.requests / requests)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const ENDPOINTS_SHOWN = 10;

/**
 * A procedure the API does not publish (the dashboard's own), named in words from its path: "account.createKey" is
 * "Account: create key", "webhooks.list" is "Webhooks: list"; the row says "Dashboard" where others give a route.
 */
export function dashboardOnly(procedure: string): string {
  const words = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  const parts = procedure.split(".");
  const action = words(parts.pop() ?? procedure);
  const section = parts.map(words).join(" ");
  const text = section ? `${section}: ${action}` : action;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** Requests and errors per endpoint, the ones with the most errors first. */
function EndpointErrors({
  endpoints,
  procedures,
}: {
  endpoints: Timeseries["responses"]["endpoints"];
  procedures: Record<string, ProcedureName>;
}) {
  if (endpoints.length === 0) return null;
  const shown = endpoints.slice(0, ENDPOINTS_SHOWN);
  return (
    <section className="card chart-card" aria-labelledby="endpoint-errors-title" data-testid="endpoint-errors">
      <h2 id="endpoint-errors-title">Requests and errors per endpoint</h2>
      <p className="muted small chart-note">
        {endpoints.length > ENDPOINTS_SHOWN
          ? `The ${ENDPOINTS_SHOWN} endpoints with the most errors, of ${endpoints.length}.`
          : "Every endpoint called in the range, the most errors first."}
      </p>
      <div
        className="chart-table-scroll"
        tabIndex={0}
        role="region"
        aria-label="Requests and errors per endpoint (scrolls sideways)"
      >
        <table className="list endpoint-errors">
          <caption className="visually-hidden">
            Requests, client errors and server errors per endpoint in the range
          </caption>
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Requests</th>
              <th scope="col">4xx</th>
              <th scope="col">5xx</th>
              <th scope="col">Error rate</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((e) => {
              const name = procedures[e.endpoint];
              return (
                <tr key={e.endpoint}>
                  <th scope="row">
                    {name ? name.summary : dashboardOnly(e.endpoint)}
                    <span className="muted small endpoint-route">{name?.route ?? "Dashboard"}</span>
                  </th>
                  <td className="num">{fmt.format(e.requests)}</td>
                  <td className="num">{fmt.format(e.clientErrors)}</td>
                  <td className="num">{fmt.format(e.serverErrors)}</td>
                  <td className="num">
                    {e.requests === 0 ? "—" : percent((e.clientErrors + e.serverErrors) / e.requests)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

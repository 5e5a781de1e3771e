"use client";
// Analytics (GET /v1/analytics/timeseries through the dashboard's tRPC endpoint, so the numbers are the API's): totals first,
// then units per day by endpoint and by key, assessments per day by risk level and decision, top signals and
// rules, the failure rate of bulk items and webhook deliveries, and the error rate of the workspace's own requests
// (4xx and 5xx per day, the top error statuses in words, the endpoints with the most errors), for a chosen range of
// UTC days. This file holds the range and the read; AnalyticsBody.tsx and ErrorTables.tsx show the numbers.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { DateRangeFilter, rangeProblem, type DateRange } from "../_components/DateRangeFilter";
import { ReadFailed } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { AnalyticsBody } from "./AnalyticsBody";
import type { ProcedureName } from "./procedure-names";

const today = () => new Date().toISOString().slice(0, 10);
const daysBefore = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

type RangeInput = { days: number } | { since: string; until: string };

/**
 * The presets this page offers: its API counts whole UTC days, at most 366 of them, so neither "All time" nor "Last
 * 24 hours" (it would be today's UTC day) is one it can answer as worded.
 */
const OFFER = ["7", "30", "90", "365", "custom"] as const;
const MAX_DAYS = 366;

function rangeInput({ range, from, to }: DateRange): RangeInput {
  if (range !== "custom") return { days: Number(range) };
  // The "to" day is shown inclusive; the API's until is exclusive.
  return { since: from, until: to ? daysBefore(to, -1) : "" };
}

export function AnalyticsView({ procedures = {} }: { procedures?: Record<string, ProcedureName> }) {
  const trpc = useTRPC();
  const [dates, setDates] = useState<DateRange>(() => ({ range: "30", from: daysBefore(today(), 13), to: today() }));
  const input = rangeInput(dates);
  // Dates the filter says are wrong are not asked for; the charts of the last good range stay.
  const q = useQuery({
    ...trpc.workspace.analyticsTimeseries.queryOptions(input),
    placeholderData: keepPreviousData,
    retry: false,
    enabled: rangeProblem(dates, MAX_DAYS) === null,
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
        <DateRangeFilter value={dates} onChange={setDates} offer={OFFER} maxDays={MAX_DAYS} testIdPrefix="analytics" />
        {q.isFetching && data ? (
          <span className="muted small" role="status">
            Updating…
          </span>
        ) : null}
      </form>

      <ReadFailed what="The analytics" query={q} />
      {q.isLoading && !q.error ? (
        <p className="muted" role="status" data-testid="analytics-loading">
          Loading analytics…
        </p>
      ) : null}
      {data ? <AnalyticsBody data={data} procedures={procedures} /> : null}
    </>
  );
}

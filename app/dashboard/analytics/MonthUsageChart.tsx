"use client";
// The overview's usage over this UTC month, per key or per endpoint: the analytics time series from the first of
// the month, so its days add up to the meter beside it.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { endpointLabel } from "../_components/endpoint-names";
import { ReadFailed } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { DailyStackedChart, groupValues, topSeries } from "./charts";

const monthStart = () => `${new Date().toISOString().slice(0, 7)}-01`;

export function MonthUsageChart() {
  const trpc = useTRPC();
  const [by, setBy] = useState<"key" | "endpoint">("key");
  const [since] = useState(monthStart);
  const q = useQuery({ ...trpc.workspace.analyticsTimeseries.queryOptions({ since }), retry: false });
  const data = q.data;
  const grouped = data
    ? by === "key"
      ? topSeries(
          data.keys.map((k) => ({ key: k.key, label: k.prefix ? `${k.name} (${k.prefix}…)` : k.name, value: k.units })),
        )
      : topSeries(data.endpoints.map((e) => ({ key: e.endpoint, label: endpointLabel(e.endpoint), value: e.units })))
    : null;
  return (
    <section className="month-usage" aria-label="Usage over this month" data-testid="month-usage">
      <div className="row-between" style={{ marginBottom: "0.5rem", flexWrap: "wrap" }}>
        <span className="small muted">Split by</span>
        <div className="segmented" role="group" aria-label="Split the usage by">
          <button
            type="button"
            aria-pressed={by === "key"}
            onClick={() => setBy("key")}
            data-testid="month-usage-by-key"
          >
            Per key
          </button>
          <button
            type="button"
            aria-pressed={by === "endpoint"}
            onClick={() => setBy("endpoint")}
            data-testid="month-usage-by-endpoint"
          >
            Per endpoint
          </button>
        </div>
      </div>
      <ReadFailed what="This month's usage" query={q} />
      {q.isPending && !q.error ? (
        <p className="muted small" role="status">
          Loading this month&apos;s usage…
        </p>
      ) : null}
      {data && grouped ? (
        <DailyStackedChart
          id={`month-${by}`}
          title={by === "key" ? "Units per day by key" : "Units per day by endpoint"}
          unit="units"
          series={grouped.series}
          days={data.daily.map((d) => ({
            date: d.date,
            values: groupValues(by === "key" ? d.unitsByKey : d.unitsByEndpoint, grouped.rest),
          }))}
          emptyText="No lookup units used this month yet."
          height={200}
          nested
        />
      ) : null}
      <p className="small">
        <Link href="/dashboard/analytics">More analytics</Link>
      </p>
    </section>
  );
}

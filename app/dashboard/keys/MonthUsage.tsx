"use client";
// This month's usage per API key and per endpoint (GET /analytics/summary's thisMonth), on the Keys page: who and
// what used the workspace's shared allowance. The dashboard's own requests are one row, "Dashboard"; the monitor runs
// the schedule started are one, "Scheduled monitor runs" (server/analytics/payers.ts).
import { useQuery } from "@tanstack/react-query";
import { endpointLabel } from "../_components/endpoint-names";
import { ReadFailed } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";

type Summary = { thisMonth: { keys: Row[]; endpoints: { endpoint: string; requests: number; units: number }[] } };
type Row = { key_id: string | null; name: string; requests: number; units: number };

export function useMonthUsage() {
  const trpc = useTRPC();
  const q = useQuery(trpc.workspace.analyticsSummary.queryOptions({ days: 1 }));
  return {
    error: q.error,
    isPending: q.isPending,
    isFetching: q.isFetching,
    refetch: q.refetch,
    data: q.data?.thisMonth as Summary["thisMonth"] | undefined,
  };
}

const n = (v: number) => v.toLocaleString("en-US");

type MonthQuery = ReturnType<typeof useMonthUsage>;

export function MonthUsageCard({ query }: { query: MonthQuery }) {
  const data = query.data;
  return (
    <section className="card" data-testid="month-usage">
      <h2>Usage this month</h2>
      <ReadFailed what="This month's usage" query={query} />
      {query.isPending ? <p className="muted small">Loading this month&apos;s usage…</p> : null}
      {data && data.keys.length === 0 ? <p className="muted small">No lookup units used this month yet.</p> : null}
      {data && data.keys.length > 0 ? (
        <div className="usage-split">
          <table className="list cards" data-testid="usage-by-key">
            <thead>
              <tr>
                <th>Key</th>
                <th>Requests</th>
                <th>Units</th>
              </tr>
            </thead>
            <tbody>
              {data.keys.map((k) => (
                <tr key={k.key_id ?? "dashboard"}>
                  <td data-label="Key">{k.name}</td>
                  <td data-label="Requests">{n(k.requests)}</td>
                  <td data-label="Units">{n(k.units)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="list cards" data-testid="usage-by-endpoint">
            <thead>
              <tr>
                <th>Endpoint</th>
                <th>Requests</th>
                <th>Units</th>
              </tr>
            </thead>
            <tbody>
              {data.endpoints.map((e) => (
                <tr key={e.endpoint}>
                  <td data-label="Endpoint" title={e.endpoint}>
                    {endpointLabel(e.endpoint)}
                  </td>
                  <td data-label="Requests">{n(e.requests)}</td>
                  <td data-label="Units">{n(e.units)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

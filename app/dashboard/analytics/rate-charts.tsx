"use client";
// The analytics charts of rates (recharts, SVG, bundled from npm): the failure rate of bulk items and webhook
// deliveries per day, and the share of the workspace's requests refused (4xx) or failed (5xx) per day.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartFrame, fmt, shortDate, TableAlternative } from "./chart-frame";

export function RateLineChart(props: {
  id: string;
  title: string;
  note?: string;
  days: { date: string; rate: number | null; failed: number; finished: number }[];
  emptyText: string;
}) {
  const finished = props.days.reduce((s, d) => s + d.finished, 0);
  const failed = props.days.reduce((s, d) => s + d.failed, 0);
  const data = props.days.map((d) => ({
    date: shortDate(d.date),
    rate: d.rate === null ? null : Math.round(d.rate * 1000) / 10,
  }));
  return (
    <ChartFrame
      id={props.id}
      title={props.title}
      note={props.note}
      summary={`${fmt.format(failed)} of ${fmt.format(finished)} finished items failed over ${props.days.length} days.`}
      empty={finished === 0 ? props.emptyText : null}
      table={
        <TableAlternative
          caption={props.title}
          newestFirst
          head={["Day", "Finished", "Failed", "Failure rate"]}
          rows={[...props.days]
            .reverse()
            .map((d) => [d.date, d.finished, d.failed, d.rate === null ? "—" : `${(d.rate * 100).toFixed(1)} %`])}
        />
      }
    >
      <ResponsiveContainer width="100%" height={200}>
        <LineChart data={data} margin={{ top: 8, right: 8, left: -12, bottom: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e5e7eb" />
          <XAxis dataKey="date" tick={{ fontSize: 12, fill: "#4b5563" }} minTickGap={12} />
          <YAxis unit="%" domain={[0, 100]} tick={{ fontSize: 12, fill: "#4b5563" }} width={48} />
          <Tooltip formatter={(v) => `${v} %`} />
          <Line
            type="monotone"
            dataKey="rate"
            name="Failure rate"
            stroke="#b91c1c"
            strokeWidth={2}
            dot={{ r: 3 }}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

/** The few largest series by total, the rest summed as "Other", so a stacked chart stays readable. */
export function ErrorRateChart(props: {
  id: string;
  title: string;
  note?: string;
  days: {
    date: string;
    requests: number;
    clientErrors: number;
    serverErrors: number;
    clientErrorRate: number | null;
    serverErrorRate: number | null;
  }[];
  emptyText: string;
}) {
  const requests = props.days.reduce((s, d) => s + d.requests, 0);
  const client = props.days.reduce((s, d) => s + d.clientErrors, 0);
  const server = props.days.reduce((s, d) => s + d.serverErrors, 0);
  const pct = (r: number | null) => (r === null ? null : Math.round(r * 1000) / 10);
  const data = props.days.map((d) => ({
    date: shortDate(d.date),
    client: pct(d.clientErrorRate),
    server: pct(d.serverErrorRate),
  }));
  const shown = (r: number | null) => (r === null ? "—" : `${(r * 100).toFixed(1)} %`);
  const worst = props.days.reduce(
    (best, d) => {
      const r = d.requests === 0 ? -1 : (d.clientErrors + d.serverErrors) / d.requests;
      return r > best.r ? { r, date: d.date } : best;
    },
    { r: -1, date: "" },
  );
  const summary = `${fmt.format(client)} client errors (4xx) and ${fmt.format(server)} server errors (5xx) of ${fmt.format(requests)} requests over ${props.days.length} days${
    worst.date && worst.r > 0
      ? `; the worst day was ${shortDate(worst.date)} with ${(worst.r * 100).toFixed(1)} % of its requests refused or failed`
      : ""
  }.`;
  return (
    <ChartFrame
      id={props.id}
      title={props.title}
      note={props.note}
      summary={summary}
      empty={requests === 0 ? props.emptyText : null}
      table={
        <TableAlternative
          caption={props.title}
          newestFirst
          head={["Day", "Requests", "Client errors (4xx)", "Server errors (5xx)", "4xx rate", "5xx rate"]}
          rows={[...props.days]
            .reverse()
            .map((d) => [
              d.date,
              d.requests,
              d.clientErrors,
              d.serverErrors,
              shown(d.clientErrorRate),
              shown(d.serverErrorRate),
            ])}
        />
      }
    >
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={data} margin={{ top: 8, right: 8, left: -12, bottom: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e5e7eb" />
          <XAxis dataKey="date" tick={{ fontSize: 12, fill: "#4b5563" }} minTickGap={12} />
          <YAxis unit="%" domain={[0, 100]} tick={{ fontSize: 12, fill: "#4b5563" }} width={48} />
          <Tooltip formatter={(v) => `${v} %`} />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          <Line
            type="monotone"
            dataKey="client"
            name="Client errors (4xx)"
            stroke="#d97706"
            strokeWidth={2}
            dot={{ r: 3 }}
            connectNulls={false}
            isAnimationActive={false}
          />
          <Line
            type="monotone"
            dataKey="server"
            name="Server errors (5xx)"
            stroke="#b91c1c"
            strokeWidth={2}
            strokeDasharray="5 3"
            dot={{ r: 3 }}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

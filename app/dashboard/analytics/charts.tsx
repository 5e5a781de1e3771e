"use client";
// The analytics charts (recharts, SVG, bundled from npm). Each chart is a figure with a heading that names it, a
// one-sentence summary for screen readers, and the same numbers as a table behind a "Show as table" toggle, so
// nothing is only visible as a picture.
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import "./analytics.css";

export interface Series {
  key: string;
  label: string;
  color: string;
}

const PALETTE = ["#2563eb", "#0d9488", "#d97706", "#7c3aed", "#db2777", "#65a30d", "#475569"];
export const OTHER_COLOR = "#9ca3af";
export const seriesColor = (i: number) => PALETTE[i % PALETTE.length]!;
const fmt = new Intl.NumberFormat("en-US");
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "2026-11-03" as "Nov 3" (UTC days, written without a time zone conversion). */
export const shortDate = (date: string) => `${MONTHS[Number(date.slice(5, 7)) - 1]} ${Number(date.slice(8, 10))}`;

function TableAlternative({
  caption,
  head,
  rows,
  newestFirst,
}: {
  caption: string;
  head: string[];
  rows: (string | number)[][];
  newestFirst?: boolean;
}) {
  return (
    <details className="chart-table">
      <summary>Show as table{newestFirst ? " (newest day first)" : ""}</summary>
      <div className="chart-table-scroll">
        <table className="list">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {head.map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                {r.map((c, j) =>
                  j === 0 ? (
                    <th key={j} scope="row">
                      {c}
                    </th>
                  ) : (
                    <td key={j} className="num">
                      {typeof c === "number" ? fmt.format(c) : c}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

interface FrameProps {
  id: string;
  title: string;
  summary: string;
  empty: string | null;
  children: React.ReactNode;
  table: React.ReactNode;
  /** Inside another card (the overview): no card of its own, and a level-3 heading. */
  nested?: boolean;
  /** What the chart counts, when the title alone does not say it. */
  note?: string;
}

function ChartFrame({ id, title, summary, empty, children, table, nested, note }: FrameProps) {
  const Heading = nested ? "h3" : "h2";
  return (
    <figure
      className={nested ? "chart-card chart-nested" : "card chart-card"}
      aria-labelledby={`${id}-title`}
      data-testid={`chart-${id}`}
    >
      <Heading id={`${id}-title`}>{title}</Heading>
      {note ? <p className="muted small chart-note">{note}</p> : null}
      {empty ? (
        <p className="muted small chart-empty" data-testid={`chart-${id}-empty`}>
          {empty}
        </p>
      ) : (
        <>
          <p className="visually-hidden" id={`${id}-summary`}>
            {summary}
          </p>
          <div className="chart-area" role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-summary`}>
            {children}
          </div>
          {table}
        </>
      )}
    </figure>
  );
}

/** Per-day values stacked by series (units by endpoint, assessments by risk level, ...). */
export function DailyStackedChart(props: {
  id: string;
  title: string;
  unit: string;
  days: { date: string; values: Record<string, number> }[];
  series: Series[];
  emptyText: string;
  height?: number;
  nested?: boolean;
}) {
  const data = props.days.map((d) => ({ date: shortDate(d.date), ...d.values }));
  const total = props.days.reduce((s, d) => s + props.series.reduce((t, se) => t + (d.values[se.key] ?? 0), 0), 0);
  const peak = props.days.reduce(
    (best, d) => {
      const v = props.series.reduce((t, se) => t + (d.values[se.key] ?? 0), 0);
      return v > best.v ? { v, date: d.date } : best;
    },
    { v: 0, date: "" },
  );
  const summary = `${fmt.format(total)} ${props.unit} over ${props.days.length} days across ${props.series.length} series (${props.series.map((s) => s.label).join(", ")})${peak.date ? `; the busiest day was ${shortDate(peak.date)} with ${fmt.format(peak.v)}` : ""}.`;
  return (
    <ChartFrame
      id={props.id}
      title={props.title}
      summary={summary}
      nested={props.nested}
      empty={total === 0 ? props.emptyText : null}
      table={
        <TableAlternative
          caption={props.title}
          newestFirst
          head={["Day", ...props.series.map((s) => s.label), "Total"]}
          rows={[...props.days]
            .reverse()
            .map((d) => [
              d.date,
              ...props.series.map((s) => d.values[s.key] ?? 0),
              props.series.reduce((t, s) => t + (d.values[s.key] ?? 0), 0),
            ])}
        />
      }
    >
      <ResponsiveContainer width="100%" height={props.height ?? 240}>
        <BarChart data={data} margin={{ top: 8, right: 8, left: -12, bottom: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e5e7eb" />
          <XAxis dataKey="date" tick={{ fontSize: 12, fill: "#4b5563" }} minTickGap={12} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: "#4b5563" }} width={48} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          {props.series.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.label} stackId="day" fill={s.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

/** A ranking (top signals, top rules) as horizontal bars. */
export function TopBarChart(props: {
  id: string;
  title: string;
  unit: string;
  rows: { label: string; value: number }[];
  emptyText: string;
  color?: string;
}) {
  const summary = props.rows.map((r) => `${r.label}: ${fmt.format(r.value)}`).join("; ");
  return (
    <ChartFrame
      id={props.id}
      title={props.title}
      summary={`${props.title}, ${props.unit}: ${summary}.`}
      empty={props.rows.length === 0 ? props.emptyText : null}
      table={
        <TableAlternative
          caption={props.title}
          head={["Name", props.unit]}
          rows={props.rows.map((r) => [r.label, r.value])}
        />
      }
    >
      <ResponsiveContainer width="100%" height={Math.max(120, props.rows.length * 30 + 30)}>
        <BarChart
          data={props.rows}
          layout="vertical"
          margin={{ top: 4, right: 16, left: 0, bottom: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#e5e7eb" />
          <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12, fill: "#4b5563" }} />
          <YAxis type="category" dataKey="label" width={120} tick={{ fontSize: 12, fill: "#374151" }} />
          <Tooltip />
          <Bar dataKey="value" name={props.unit} fill={props.color ?? "#2563eb"} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

/** The failure rate per day, as a percentage line; days with nothing finished are gaps. */
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
export function topSeries(
  totals: { key: string; label: string; value: number }[],
  max = 6,
): { series: Series[]; rest: Set<string> } {
  const sorted = [...totals].sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
  const shown = sorted.length > max ? sorted.slice(0, max - 1) : sorted;
  const rest = new Set(sorted.slice(shown.length).map((t) => t.key));
  const series = shown.map((t, i) => ({ key: t.key, label: t.label, color: seriesColor(i) }));
  if (rest.size > 0) series.push({ key: "__other", label: "Other", color: OTHER_COLOR });
  return { series, rest };
}

/** A day's values keyed by series, with the keys outside the shown series summed under "__other". */
export function groupValues(values: Record<string, number>, rest: Set<string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(values)) {
    const key = rest.has(k) ? "__other" : k;
    out[key] = (out[key] ?? 0) + v;
  }
  return out;
}

/** The share of a day's requests answered with a 4xx and with a 5xx, as two percentage lines; quiet days are gaps. */
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

"use client";
// The analytics charts of counts (recharts, SVG, bundled from npm): units or assessments per day stacked by series,
// and the top rows of a ranking as bars, with the helpers that keep the largest series and group the rest.
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartFrame, fmt, OTHER_COLOR, seriesColor, shortDate, TableAlternative, type Series } from "./chart-frame";

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
  const summary = `${fmt.format(total)} ${props.unit} over ${props.days.length} ${props.days.length === 1 ? "day" : "days"} across ${props.series.length} series (${props.series.map((s) => s.label).join(", ")})${peak.date ? `; the busiest day was ${shortDate(peak.date)} with ${fmt.format(peak.v)}` : ""}.`;
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

/**
 * A ranking (top signals, top rules) as horizontal bars drawn in HTML: each name wraps onto as many lines as it
 * needs above its bar, so no label is cut at any width (an SVG axis has a fixed label width and clipped them).
 * `detail` is a second, smaller line (a signal's code, which rules and the API use).
 */
export function TopBarChart(props: {
  id: string;
  title: string;
  unit: string;
  rows: { label: string; value: number; detail?: string }[];
  emptyText: string;
  color?: string;
}) {
  const summary = props.rows.map((r) => `${r.label}: ${fmt.format(r.value)}`).join("; ");
  const max = Math.max(1, ...props.rows.map((r) => r.value));
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
          rows={props.rows.map((r) => [r.detail ? `${r.label} (${r.detail})` : r.label, r.value])}
        />
      }
    >
      <ol className="top-bars" data-testid={`top-bars-${props.id}`}>
        {props.rows.map((r, i) => (
          <li key={i} className="top-bar" data-testid="top-bar">
            <span className="top-bar-label">
              <span data-testid="top-bar-name">{r.label}</span>
              {r.detail ? <code className="top-bar-detail">{r.detail}</code> : null}
            </span>
            <span className="top-bar-track">
              <span
                className="top-bar-fill"
                style={{ width: `${(r.value / max) * 100}%`, background: props.color ?? "#2563eb" }}
              />
            </span>
            <span className="top-bar-value">{fmt.format(r.value)}</span>
          </li>
        ))}
      </ol>
    </ChartFrame>
  );
}

/** The failure rate per day, as a percentage line; days with nothing finished are gaps. */
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

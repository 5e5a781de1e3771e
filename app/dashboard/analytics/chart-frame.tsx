"use client";
// What every analytics chart shares: the series colours, the day and number formats, and the frame that makes a
// chart a figure with a heading, a one-sentence summary for screen readers and the same numbers as a table behind
// a "Show as table" toggle, so nothing is only visible as a picture.
import "./analytics.css";

export interface Series {
  key: string;
  label: string;
  color: string;
}

const PALETTE = ["#2563eb", "#0d9488", "#d97706", "#7c3aed", "#db2777", "#65a30d", "#475569"];
export const OTHER_COLOR = "#9ca3af";
export const seriesColor = (i: number) => PALETTE[i % PALETTE.length]!;
export const fmt = new Intl.NumberFormat("en-US");
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "2026-11-03" as "Nov 3" (UTC days, written without a time zone conversion). */
export const shortDate = (date: string) => `${MONTHS[Number(date.slice(5, 7)) - 1]} ${Number(date.slice(8, 10))}`;

export function TableAlternative({
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

export function ChartFrame({ id, title, summary, empty, children, table, nested, note }: FrameProps) {
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

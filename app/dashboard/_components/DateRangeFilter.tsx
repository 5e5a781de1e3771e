"use client";
// The dashboard's one time-range filter (events, lookup history, analytics, rule backtests): the same label, the same
// wording of each preset and the same custom UTC days everywhere; each page turns the choice into what its API takes.
// Custom dates the API would refuse (To before From, more days than it reads) are said under the fields in their
// labels' words, before any request: a page asks nothing while rangeProblem() names one.
import "./date-range.css";
import { useFieldProblems } from "./field-problem";

/** Every preset, in the order shown. A page offers those its API can answer (`offer`), always in this wording. */
export const RANGE_OPTIONS = [
  { value: "1", label: "Last 24 hours" },
  { value: "7", label: "Last 7 days" },
  { value: "30", label: "Last 30 days" },
  { value: "90", label: "Last 90 days" },
  { value: "365", label: "Last 365 days" },
  { value: "all", label: "All time" },
  { value: "custom", label: "Custom dates" },
] as const;

export type RangeChoice = (typeof RANGE_OPTIONS)[number]["value"];

/** The filter's value: a preset, or "custom" with UTC days `from` and `to` (YYYY-MM-DD, `to` inclusive). */
export interface DateRange {
  range: RangeChoice;
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;

/** The start of a relative preset ("7": seven days before `now`); none for "all" and "custom". */
export function presetSince(range: RangeChoice, now = Date.now()): Date | undefined {
  return range === "all" || range === "custom" ? undefined : new Date(now - Number(range) * DAY_MS);
}

/** Custom UTC days as instants: `from` at 00:00 UTC, the day after `to` at 00:00 UTC (exclusive); either may be unset. */
export function customBounds(from: string, to: string): { since?: Date; until?: Date } {
  return {
    since: from ? new Date(`${from}T00:00:00.000Z`) : undefined,
    until: to ? new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS) : undefined,
  };
}

/** What is wrong with custom dates, in the words of the fields; null when the page can ask for them. */
export function rangeProblem(value: DateRange, maxDays?: number): string | null {
  if (value.range !== "custom" || !value.from || !value.to) return null;
  if (value.to < value.from) return "The “To” date must be on or after the “From” date.";
  const days = Math.round((Date.parse(value.to) - Date.parse(value.from)) / DAY_MS) + 1;
  if (maxDays !== undefined && days > maxDays)
    return `Choose at most ${maxDays} days from “From” to “To” (these dates cover ${days.toLocaleString("en-US")}).`;
  return null;
}

export function DateRangeFilter({
  value,
  onChange,
  offer = RANGE_OPTIONS.map((o) => o.value),
  maxDays,
  testIdPrefix,
}: {
  value: DateRange;
  onChange: (next: DateRange) => void;
  /** The presets this page's API can answer; the default is all of them. */
  offer?: readonly RangeChoice[];
  /** The most days the page's API reads in one custom range. */
  maxDays?: number;
  /** Test ids `${prefix}-range`, `${prefix}-from`, `${prefix}-to` and `${prefix}-range-problem`. */
  testIdPrefix: string;
}) {
  const options = RANGE_OPTIONS.filter((o) => offer.includes(o.value));
  const problem = rangeProblem(value, maxDays);
  // Checked as the user picks dates, so the problem is said (role alert) without moving the focus.
  const { problemId, fieldProps } = useFieldProblems({ to: problem ?? undefined });
  const testId = `${testIdPrefix}-range-problem`;
  return (
    <div className="date-range" data-testid={`${testIdPrefix}-date-range`}>
      <label className="date-range-field">
        Time range
        <select
          value={value.range}
          onChange={(e) => onChange({ ...value, range: e.target.value as RangeChoice })}
          data-testid={`${testIdPrefix}-range`}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      {value.range === "custom" ? (
        <>
          <label className="date-range-field">
            From (UTC)
            <input
              type="date"
              value={value.from}
              max={value.to || undefined}
              onChange={(e) => onChange({ ...value, from: e.target.value })}
              data-testid={`${testIdPrefix}-from`}
            />
          </label>
          <label className="date-range-field">
            To (UTC, inclusive)
            <input
              type="date"
              value={value.to}
              onChange={(e) => onChange({ ...value, to: e.target.value })}
              {...fieldProps("to")}
              data-testid={`${testIdPrefix}-to`}
            />
          </label>
          {problem ? (
            <p className="error date-range-problem" id={problemId("to")} role="alert" data-testid={testId}>
              {problem}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

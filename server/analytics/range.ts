// The time range of an analytics time series: the last `days` UTC days (today included), or `since`..`until`.
// Buckets are whole UTC days, so the same range gives the same days to API users and to the dashboard.
import { AppError } from "../errors";
import { UNTIL_AFTER_SINCE } from "../timestamps";

export const MAX_RANGE_DAYS = 366;
const DAY = 86_400_000;

export interface AnalyticsRange {
  since: Date;
  until: Date;
  /** Every UTC date the range touches, oldest first ("YYYY-MM-DD"). */
  dates: string[];
}

const startOfUtcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/** Resolves `days` or `since`/`until` (never both) into a range; a range that cannot be read is 400 INVALID_REQUEST. */
export function resolveRange(a: { days?: number; since?: Date; until?: Date; now?: Date }): AnalyticsRange {
  const now = a.now ?? new Date();
  if (a.days !== undefined && (a.since || a.until))
    throw new AppError("INVALID_REQUEST", "Give either days or since/until, not both.");
  let since: Date;
  let until: Date;
  if (a.since || a.until) {
    until = a.until ?? now;
    since = a.since ?? new Date(startOfUtcDay(until).getTime() - 29 * DAY);
  } else {
    const days = a.days ?? 30;
    until = now;
    since = new Date(startOfUtcDay(now).getTime() - (days - 1) * DAY);
  }
  if (Number.isNaN(since.getTime()) || Number.isNaN(until.getTime()))
    throw new AppError("INVALID_REQUEST", "since and until must be dates (ISO 8601).");
  // A given pair was refused by the input schema (withUntilAfterSince); this is a `since` past the default `until`.
  if (until.getTime() <= since.getTime()) throw new AppError("INVALID_REQUEST", UNTIL_AFTER_SINCE);
  // Counted from the two ends before any day is listed: 1970-01-01..9999-12-31 would be 2.9 million of them.
  const first = startOfUtcDay(since).getTime();
  if (Math.ceil((until.getTime() - first) / DAY) > MAX_RANGE_DAYS)
    throw new AppError("INVALID_REQUEST", `The range covers at most ${MAX_RANGE_DAYS} days.`);
  const dates: string[] = [];
  for (let t = first; t < until.getTime(); t += DAY) dates.push(new Date(t).toISOString().slice(0, 10));
  return { since, until, dates };
}

// One reading of a point in time sent to the API, for every date field (list items' and the review queue's
// `expires_at`, the ranges of events, lookup history, analytics and backtests, cursors made of times): an ISO 8601
// calendar date (midnight UTC) or date-time with `Z` or an offset, from 1970-01-01 to 9999-12-31 UTC. Anything else
// is 400 naming the field, before anything is read or written: PostgreSQL has no year 0 and no year past 294276
// (JavaScript's Date goes to +275760 and back to -271821, and the driver writes those years in a form PostgreSQL
// refuses: a 500), JavaScript reads a number as milliseconds (`true` was 1970, a CSV "1" was 2001), and a time
// without an offset is in no zone we know. Four-digit years only; no date this service keeps is before 1970.
import { z } from "zod";

export const EARLIEST_TIMESTAMP = Date.UTC(1970, 0, 1);
export const LATEST_TIMESTAMP = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const EXAMPLE = "write an ISO 8601 date or date-time such as 2027-01-31T00:00:00Z";
const NOT_A_DATE = `not a date; ${EXAMPLE}`;
const OUT_OF_RANGE = "must be from 1970-01-01 to 9999-12-31 (UTC), the years this service keeps";
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** The instant `text` names, or why it names none (a clause for "<field>: ..."). */
export function parseTimestamp(text: string): Date | string {
  const m = ISO.exec(text.trim());
  if (!m) {
    // A "+" left unencoded in a query string arrives as a space.
    if (/\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)? \d{2}:?\d{2}$/.test(text.trim()))
      return `not a date: the offset's "+" arrived as a space (write it as %2B in a query string); ${EXAMPLE}`;
    if (/^[+-]\d{5,}-|^\d{5,}-/.test(text.trim()))
      return `the year must be 1970 to 9999, written with four digits; ${EXAMPLE}`;
    return NOT_A_DATE;
  }
  const [, y, mo, d, h, mi, s, frac, offset] = m;
  if (h !== undefined && offset === undefined) return `a time needs Z (UTC) or an offset such as +02:00; ${EXAMPLE}`;
  const [year, month, day] = [Number(y), Number(mo), Number(d)];
  // Date.UTC reads years 0 to 99 as 1900 to 1999: those are out of range anyway.
  if (year < 1000) return OUT_OF_RANGE;
  const [hour, minute, second] = [Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0)];
  const ms = Number((frac ?? "0").padEnd(3, "0").slice(0, 3));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const back = new Date(local);
  if (
    month < 1 ||
    month > 12 ||
    back.getUTCDate() !== day ||
    back.getUTCMonth() !== month - 1 ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return `not a date: ${text.trim().slice(0, 40)} has no such day or time; ${EXAMPLE}`;
  let shift = 0;
  if (offset && offset.toUpperCase() !== "Z") {
    const digits = offset.slice(1).replace(":", "");
    const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || 0)];
    if (oh > 23 || om > 59) return `not a date: the offset ${offset} is not one; ${EXAMPLE}`;
    shift = (offset[0] === "-" ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  const at = local - shift;
  if (at < EARLIEST_TIMESTAMP || at > LATEST_TIMESTAMP) return OUT_OF_RANGE;
  return new Date(at);
}

/** Why an expiry cannot be used, or null: a time already past would never match. */
export function pastExpiryProblem(at: Date, now = Date.now()): string | null {
  return at.getTime() <= now
    ? `${at.toISOString()} has already passed; send a time in the future, or none to keep it until it is removed`
    : null;
}

/** A point in time sent as an ISO 8601 string (see the top of this file); the procedure receives a Date. */
export const timestampSchema = z
  .string({ error: NOT_A_DATE })
  .max(64, NOT_A_DATE)
  .transform((text, ctx) => {
    const at = parseTimestamp(text);
    if (typeof at === "string") {
      ctx.addIssue({ code: "custom", message: at });
      return z.NEVER;
    }
    return at;
  });

/** An expiry: a timestamp still in the future when the request arrives. */
export const expiryTimestampSchema = timestampSchema.transform((at, ctx) => {
  const problem = pastExpiryProblem(at);
  if (problem) {
    ctx.addIssue({ code: "custom", message: problem });
    return z.NEVER;
  }
  return at;
});

/**
 * The one rule of a time range sent as `since` (inclusive) and `until` (exclusive), on every route that takes one
 * (events and their CSV, lookup history, analytics, rule backtests): an `until` not after `since` names a range
 * that can hold nothing, and is refused with 400 naming `until` before anything is read or charged, rather than
 * answered with an empty page a client would read as "nothing happened then".
 */
export const UNTIL_AFTER_SINCE = "until must be after since";

/** `schema` (an input object with optional `since` and `until`) refusing a range whose `until` is not after `since`. */
export function withUntilAfterSince<T extends z.ZodType<{ since?: Date; until?: Date }>>(schema: T): T {
  return schema.refine((r) => !r.since || !r.until || r.since.getTime() < r.until.getTime(), {
    message: UNTIL_AFTER_SINCE,
    path: ["until"],
  });
}

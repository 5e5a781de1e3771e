// Settings of saved fraud reports, read at call time so tests and operators can change them without a restart.

/** Largest report content accepted, measured as its JSON text in UTF-8 bytes. */
export const REPORT_MAX_BYTES = 256 * 1024;

/** Days an expired report is kept (hidden) before deleteExpiredReports removes it. */
export function reportsPurgeAfterDays(): number {
  const raw = process.env.SERVICE_REPORTS_PURGE_AFTER_DAYS;
  const n = raw === undefined || raw.trim() === "" ? 7 : Number(raw);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : 7;
}

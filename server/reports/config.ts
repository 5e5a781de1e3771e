// Settings of saved fraud reports, read at call time so tests and operators can change them without a restart.
import { setting } from "../env";

/** Largest report content accepted, measured as its JSON text in UTF-8 bytes. */
export const REPORT_MAX_BYTES = 256 * 1024;

/** Days an expired report is kept (hidden) before deleteExpiredReports removes it. */
export function reportsPurgeAfterDays(): number {
  return setting("SERVICE_REPORTS_PURGE_AFTER_DAYS");
}

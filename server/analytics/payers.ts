// Who spent a ledger row's units, as analytics names it: an API key by its id, the dashboard (a member asked, the
// row has a user and no key), or the schedule (neither: a monitor run the scheduler started, which nobody asked for;
// server/monitors/run.ts). One reading for the month's usage (./month-usage.ts) and the daily series (./timeseries.ts).
import { DASHBOARD_KEY } from "./request-outcomes";

/** The key column's value for units spent by scheduled monitor runs. */
export const SCHEDULED_KEY = "scheduled";

/** A ledger row's payer as SQL: the key's id, NULL for the dashboard, or SCHEDULED_KEY (see above). */
export const PAYER_SQL = `coalesce("apiKeyId", CASE WHEN "userId" IS NULL THEN '${SCHEDULED_KEY}' END)`;

/** The name analytics shows for a payer: "Dashboard", "Scheduled monitor runs", or a key's name (`keyName`). */
export function payerName(key: string | null, keyName: string | undefined): string {
  if (key === null || key === DASHBOARD_KEY) return "Dashboard";
  if (key === SCHEDULED_KEY) return "Scheduled monitor runs";
  return keyName ?? "Deleted key";
}

/** Whether a payer is an API key (whose name and status are read from its row). */
export const isKeyPayer = (key: string | null): key is string =>
  key !== null && key !== DASHBOARD_KEY && key !== SCHEDULED_KEY;

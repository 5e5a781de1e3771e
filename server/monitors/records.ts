// A stored monitor as the API shows it, and the link to its page in the dashboard (built on SERVICE_PUBLIC_URL,
// as other links into the app are).
import { jobCharging } from "../bulk/procedures";
import { emailAlertsOf } from "./mailer/outbox";
import { emailAvailable } from "./mailer/settings";
import type { MonitorCheck } from "./schemas";
import type { MonitorInterval } from "./limits";
import { targetFree } from "./checks";
import { parseMonitorTarget } from "./target";
import { monitorUrl } from "./url";
import type { Severity } from "./checks/types";

export interface MonitorRow {
  id: string;
  workspaceId: string;
  name: string | null;
  target: string;
  checks: unknown;
  interval: string;
  thresholds: unknown;
  status: string;
  nextRunAt: Date;
  lastRunAt: Date | null;
  lastStates: unknown;
  emailAlerts: unknown;
  emailUnsubscribed: string[];
  createdAt: Date;
  updatedAt: Date;
}

export type StoredStates = Record<string, { severity: Severity; state: Record<string, unknown> }>;

export const checksOf = (row: Pick<MonitorRow, "checks">) => row.checks as MonitorCheck[];
export const thresholdsOf = (row: Pick<MonitorRow, "thresholds">) => row.thresholds as { tls_expiry_days: number[] };

/**
 * Units one run reserves, as the charging module answers them (server/api/charging.ts monitorRunUnits: one per
 * check, whatever its options; a project check its project's package versions, which the caller reads from the
 * database and passes as `projectUnits` below); nothing for a target that no longer parses.
 */
export function unitsPerRun(row: Pick<MonitorRow, "checks" | "target">): number {
  if (!parseMonitorTarget(row.target, targetFree(checksOf(row)), { stored: true })) return 0;
  return jobCharging().monitorRunUnits({ checks: checksOf(row).length });
}

/** `projectUnits`: a project monitor's units per run, its project's package versions (monitors.ts reads them). */
export function toMonitorRecord(row: MonitorRow, projectUnits?: number) {
  return {
    id: row.id,
    name: row.name,
    target: row.target,
    checks: checksOf(row),
    interval: row.interval as MonitorInterval,
    thresholds: thresholdsOf(row),
    status: row.status as "active" | "paused",
    units_per_run: projectUnits ?? unitsPerRun(row),
    next_run_at: row.status === "active" ? row.nextRunAt.toISOString() : null,
    last_run_at: row.lastRunAt?.toISOString() ?? null,
    states: (row.lastStates as StoredStates | null) ?? {},
    url: monitorUrl(row.id),
    email_alerts: { available: emailAvailable(), ...emailAlertsOf(row), unsubscribed: row.emailUnsubscribed },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

// Alerts of a monitor: a check's state compared with the previous run's. A change for the worse opens an alert
// (before, after); while the state stays the same and bad, a reminder at most once a day; when it turns good, the
// open alert closes with a `monitor.resolved`. A change that is not bad (new DNS records, a new CT name) is an
// `info` alert that opens nothing. The first run only alerts on a bad state: it is the baseline.
// notifyAlert() is the one place an alert leaves the service: the event, the webhooks and the emails (queued in an
// outbox in the same transaction, sent after it by the monitors task: ./email/).
import { isDeepStrictEqual } from "node:util";
import { recordEvent } from "../events/events";
import { sortableId } from "../ids";
import { MONITOR_ALERT, MONITOR_RESOLVED, queueEventDeliveries } from "../webhooks/enqueue";
import { queueAlertEmails } from "./mailer/outbox";
import type { Severity } from "./checks/types";
import { monitorUrl } from "./url";
import type { EventType } from "../events/types";
import type { AlertRow } from "./alert-row";
import type { Tx } from "./tx";

export const REMINDER_EVERY_MS = 24 * 60 * 60 * 1000;
export type AlertType = "monitor.alert" | "monitor.resolved" | "monitor.skipped";

export type { AlertRow } from "./alert-row";

interface MonitorRef {
  id: string;
  workspaceId: string;
  name: string | null;
  target: string;
}

type Observed = { severity: Severity; state: Record<string, unknown> };

export function toAlertRecord(a: AlertRow) {
  return {
    id: a.id,
    monitor_id: a.monitorId,
    type: a.type as AlertType,
    check: a.check,
    severity: a.severity as "info" | "warning" | "critical",
    before: (a.before as Record<string, unknown> | null) ?? null,
    after: (a.after as Record<string, unknown> | null) ?? null,
    reminder: a.reminder,
    open: a.open,
    run_id: a.runId,
    created_at: a.createdAt.toISOString(),
  };
}

/** The webhook type an alert is delivered as: a skipped run is a `monitor.alert` on the check `run`. */
const webhookType = (t: AlertType) => (t === "monitor.resolved" ? MONITOR_RESOLVED : MONITOR_ALERT);

/**
 * Records the alert as an event of its type (GET /v1/events), queues a delivery to each webhook subscribed to its
 * webhook type and an email to each of the monitor's recipients, in the caller's transaction (the alert, its event,
 * its deliveries and its emails: all or nothing; nothing is sent inside it).
 */
export async function notifyAlert(tx: Tx, monitor: MonitorRef, alert: AlertRow): Promise<void> {
  const data = {
    alert_id: alert.id,
    monitor: { id: monitor.id, name: monitor.name, target: monitor.target },
    check: alert.check,
    severity: alert.severity,
    before: alert.before ?? null,
    after: alert.after ?? null,
    reminder: alert.reminder,
    url: monitorUrl(monitor.id),
  };
  const requestId = alert.runId ?? alert.id;
  await recordEvent(tx, { workspaceId: monitor.workspaceId, requestId, type: alert.type as EventType, data });
  await queueEventDeliveries(tx, {
    workspaceId: monitor.workspaceId,
    type: webhookType(alert.type as AlertType),
    requestId,
    data,
  });
  await queueAlertEmails(tx, monitor, alert);
}

/** Writes an alert and notifies it, in the caller's transaction (which holds the monitor's row lock). */
export async function raiseAlert(
  tx: Tx,
  monitor: MonitorRef,
  a: {
    type: AlertType;
    check: string;
    severity: "info" | "warning" | "critical";
    before: unknown;
    after: unknown;
    open: boolean;
    reminder?: boolean;
    runId: string | null;
    now: Date;
    /** The open alert this one closes (resolved, superseded) or reminds of. */
    closes?: string | null;
    reminds?: string | null;
  },
): Promise<AlertRow> {
  if (a.closes) await tx.monitorAlert.updateMany({ where: { id: a.closes }, data: { open: false } });
  if (a.reminds) await tx.monitorAlert.updateMany({ where: { id: a.reminds }, data: { lastNotifiedAt: a.now } });
  const row = await tx.monitorAlert.create({
    data: {
      id: sortableId("mal"),
      monitorId: monitor.id,
      workspaceId: monitor.workspaceId,
      type: a.type,
      check: a.check,
      severity: a.severity,
      before: (a.before ?? undefined) as object | undefined,
      after: (a.after ?? undefined) as object | undefined,
      open: a.open,
      reminder: a.reminder ?? false,
      runId: a.runId,
      createdAt: a.now,
      lastNotifiedAt: a.now,
    },
  });
  await notifyAlert(tx, monitor, row);
  return row;
}

/** A `check_failing` alert (./failing.ts): about the check not running, not about its state. */
export const isFailingAlert = (a: { after: unknown }) =>
  (a.after as { check_failing?: unknown } | null)?.check_failing === true;

/**
 * The newest open alert of the check: about its state, or with `failing` about it not running (./failing.ts). The
 * two are kept apart, so a check that fails while its state alert is open neither reminds of nor resolves that one.
 */
export async function openAlertOf(tx: Tx, monitorId: string, check: string, o: { failing?: boolean } = {}) {
  const open = await tx.monitorAlert.findMany({
    where: { monitorId, check, open: true },
    orderBy: { createdAt: "desc" },
  });
  return open.find((a) => isFailingAlert(a) === (o.failing ?? false)) ?? null;
}

/** Compares one check's state with the previous run's and raises what the change calls for (or nothing). */
export async function alertOnChange(
  tx: Tx,
  monitor: MonitorRef,
  check: string,
  prev: Observed | undefined,
  cur: Observed,
  x: { now: Date; runId: string },
): Promise<AlertRow | null> {
  const open = await openAlertOf(tx, monitor.id, check);
  const base = { check, runId: x.runId, now: x.now };
  if (prev && isDeepStrictEqual(prev.state, cur.state)) {
    const last = open?.lastNotifiedAt ?? open?.createdAt;
    if (cur.severity === "ok" || !open || !last || x.now.getTime() - last.getTime() < REMINDER_EVERY_MS) return null;
    return raiseAlert(tx, monitor, {
      ...base,
      type: "monitor.alert",
      severity: cur.severity,
      before: open.before,
      after: cur.state,
      open: false,
      reminder: true,
      reminds: open.id,
    });
  }
  if (cur.severity === "ok") {
    if (open)
      return raiseAlert(tx, monitor, {
        ...base,
        type: "monitor.resolved",
        severity: "info",
        before: prev?.state ?? null,
        after: cur.state,
        open: false,
        closes: open.id,
      });
    if (!prev) return null;
    return raiseAlert(tx, monitor, {
      ...base,
      type: "monitor.alert",
      severity: "info",
      before: prev.state,
      after: cur.state,
      open: false,
    });
  }
  return raiseAlert(tx, monitor, {
    ...base,
    type: "monitor.alert",
    severity: cur.severity,
    before: prev?.state ?? null,
    after: cur.state,
    open: true,
    closes: open?.id ?? null,
  });
}

/** A run the allowance could not pay: one alert while it lasts (no repeat on every skipped run). */
export async function alertOnSkip(tx: Tx, monitor: MonitorRef, x: { now: Date; runId: string; reason: string }) {
  if (await openAlertOf(tx, monitor.id, "run")) return null;
  return raiseAlert(tx, monitor, {
    type: "monitor.skipped",
    check: "run",
    severity: "warning",
    before: null,
    after: { skipped: true, reason: x.reason },
    open: true,
    runId: x.runId,
    now: x.now,
  });
}

/** A paid run after skipped ones: the skip alert resolves. */
export async function resolveSkip(tx: Tx, monitor: MonitorRef, x: { now: Date; runId: string }) {
  const open = await openAlertOf(tx, monitor.id, "run");
  if (!open) return null;
  return raiseAlert(tx, monitor, {
    type: "monitor.resolved",
    check: "run",
    severity: "info",
    before: open.after,
    after: { skipped: false },
    open: false,
    runId: x.runId,
    now: x.now,
    closes: open.id,
  });
}

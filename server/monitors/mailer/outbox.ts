// Alert emails go through an outbox: notifyAlert() writes one MonitorEmail row per recipient in the alert's own
// transaction (the alert and its emails: all or nothing; (alertId, recipient) unique, so never twice), and the
// monitors task sends the due rows outside any transaction (./send.ts). SMTP unset: nothing is queued.
// Recipients: the workspace's owners, or the members chosen on the monitor (a chosen address that is no longer a
// member is left out), less those who unsubscribed from this monitor.
import { sortableId } from "../../ids";
import type { AlertRow } from "../alert-row";
import type { Tx } from "../tx";
import { composeAlertEmail } from "./compose";
import { emailAvailable } from "./settings";
import { unsubscribeUrl } from "./unsubscribe";

export type EmailRecipients = "owners" | string[];
export interface EmailAlertsSetting {
  enabled: boolean;
  recipients: EmailRecipients;
}

export const DEFAULT_EMAIL_ALERTS: EmailAlertsSetting = { enabled: true, recipients: "owners" };

export const emailAlertsOf = (row: { emailAlerts: unknown }) =>
  (row.emailAlerts as EmailAlertsSetting | null) ?? DEFAULT_EMAIL_ALERTS;

/** The addresses an alert of this monitor goes to now. */
export async function alertRecipients(
  tx: Tx,
  monitor: { workspaceId: string; emailAlerts: unknown; emailUnsubscribed: string[] },
): Promise<string[]> {
  const setting = emailAlertsOf(monitor);
  if (!setting.enabled) return [];
  const members = await tx.member.findMany({
    where: {
      workspaceId: monitor.workspaceId,
      ...(setting.recipients === "owners" ? { role: "owner" } : { email: { in: setting.recipients } }),
    },
    select: { email: true },
    orderBy: { email: "asc" },
  });
  const out = new Set(monitor.emailUnsubscribed);
  return [...new Set(members.map((m) => m.email.toLowerCase()))].filter((e) => !out.has(e));
}

/** Queues the alert's emails in the caller's transaction. */
export async function queueAlertEmails(
  tx: Tx,
  monitor: { id: string; name: string | null; target: string },
  alert: AlertRow,
): Promise<number> {
  if (!emailAvailable()) return 0;
  const row = await tx.monitor.findUnique({
    where: { id: monitor.id },
    select: { workspaceId: true, emailAlerts: true, emailUnsubscribed: true },
  });
  if (!row) return 0;
  const recipients = await alertRecipients(tx, row);
  if (recipients.length === 0) return 0;
  const { count } = await tx.monitorEmail.createMany({
    data: recipients.map((recipient) => {
      const link = unsubscribeUrl(monitor.id, recipient);
      return {
        id: sortableId("mem"),
        monitorId: monitor.id,
        workspaceId: row.workspaceId,
        alertId: alert.id,
        recipient,
        ...composeAlertEmail(monitor, alert, link),
        unsubscribeUrl: link,
        nextAttemptAt: alert.createdAt,
      };
    }),
    skipDuplicates: true,
  });
  return count;
}

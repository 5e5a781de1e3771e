// Sends the queued alert emails (./outbox.ts) through SERVICE_SMTP_URL, outside any transaction. A row is claimed
// by moving its next attempt past a lease with a conditional update, so two processes never send the same row at
// once; a send that the SMTP server refuses (or that cannot connect) is tried again later, 1, 5, 30 minutes, then
// 2 and 6 hours after, and marked `failed` after the last. A sent row is never sent again.
import nodemailer, { type Transporter } from "nodemailer";
import type { Db } from "../../db/client";
import { logger } from "../../operate/log";
import { smtpFrom, smtpUrl } from "./settings";

export const RETRY_AFTER_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];
const LEASE_MS = 5 * 60_000;
const BATCH = 20;

const transports = new Map<string, Transporter>();
function transportFor(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    t = nodemailer.createTransport(url);
    transports.set(url, t);
  }
  return t;
}

export async function sendDueMonitorEmails(db: Db, now = new Date()): Promise<{ sent: number; retried: number }> {
  const url = smtpUrl();
  if (!url) return { sent: 0, retried: 0 };
  const due = await db.monitorEmail.findMany({
    where: { status: "pending", nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: "asc" },
    take: BATCH,
  });
  let sent = 0;
  let retried = 0;
  for (const email of due) {
    const claimed = await db.monitorEmail.updateMany({
      where: { id: email.id, status: "pending", nextAttemptAt: email.nextAttemptAt },
      data: { nextAttemptAt: new Date(now.getTime() + LEASE_MS) },
    });
    if (claimed.count !== 1) continue;
    try {
      await transportFor(url).sendMail({
        from: smtpFrom(),
        to: email.recipient,
        subject: email.subject,
        text: email.text,
        html: email.html,
        headers: {
          // RFC 8058 one-click unsubscribe: mail clients POST to the link (the route accepts GET and POST).
          "List-Unsubscribe": `<${email.unsubscribeUrl}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      });
      await db.monitorEmail.update({
        where: { id: email.id },
        data: { status: "sent", sentAt: new Date(), attempts: email.attempts + 1, lastError: null },
      });
      sent++;
    } catch (err) {
      const attempts = email.attempts + 1;
      const wait = RETRY_AFTER_MS[attempts - 1];
      const message = err instanceof Error ? err.message.slice(0, 500) : String(err);
      logger().warn({ err, emailId: email.id, attempts }, "monitor alert email not sent");
      await db.monitorEmail.update({
        where: { id: email.id },
        data: {
          attempts,
          lastError: message,
          ...(wait === undefined ? { status: "failed" } : { nextAttemptAt: new Date(now.getTime() + wait) }),
        },
      });
      retried++;
    }
  }
  return { sent, retried };
}

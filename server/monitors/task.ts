// The scheduled task that runs due monitors: every minute, on the lease scheduler (server/queue/scheduled.ts), it
// claims the monitors whose `nextRunAt` has passed (./schedule.ts: a conditional UPDATE each, so no monitor runs
// twice for one slot even if two processes claim at once) and runs them a few at a time; then it sends the alert
// emails that are due (./email/send.ts), those the runs just queued and the retries.
import { bulkProceduresProvided } from "../bulk/procedures";
import type { Db } from "../db/client";
import { logger } from "../operate/log";
import type { ScheduledTask } from "../queue/scheduled";
import { sendDueMonitorEmails } from "./mailer/send";
import { runMonitor } from "./run";
import { claimDueMonitors } from "./schedule";

export const MONITOR_TASK = "monitors.run-due";
export const MONITOR_TASK_EVERY_MS = 60_000;
// Monitors run at once: each check is a lookup bounded by its provider's timeouts.
const CONCURRENCY = 4;
const BATCH = 50;

export async function runDueMonitors(db: Db, now = new Date()): Promise<{ ran: number; failed: number }> {
  // Until the API layer has handed over the procedures (server/api/bulk-procedures.ts), claim nothing.
  if (!bulkProceduresProvided()) return { ran: 0, failed: 0 };
  const outcome = await runClaimedMonitors(db, now);
  try {
    await sendDueMonitorEmails(db, new Date(Math.max(Date.now(), now.getTime())));
  } catch (err) {
    logger().error({ err }, "monitor alert emails: sending failed; the due ones are tried at the next tick");
  }
  return outcome;
}

async function runClaimedMonitors(db: Db, now: Date): Promise<{ ran: number; failed: number }> {
  let ran = 0;
  let failed = 0;
  const worker = async (queue: string[]) => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      try {
        await runMonitor(db, id, { now });
        ran++;
      } catch (err) {
        failed++;
        logger().error({ err, monitorId: id }, "monitor run failed; it runs again at its next slot");
      }
    }
  };
  // Batch after batch until nothing is due, within the task's minute (the rest waits for the next tick).
  const started = Date.now();
  for (;;) {
    const queue = await claimDueMonitors(db, now, BATCH);
    const claimed = queue.length;
    if (claimed === 0) break;
    await Promise.all(Array.from({ length: CONCURRENCY }, () => worker(queue)));
    if (claimed < BATCH || Date.now() - started > MONITOR_TASK_EVERY_MS * 0.8) break;
  }
  return { ran, failed };
}

export function monitorTask(): ScheduledTask {
  return { name: MONITOR_TASK, everyMs: MONITOR_TASK_EVERY_MS, run: (db, now) => runDueMonitors(db, now) };
}

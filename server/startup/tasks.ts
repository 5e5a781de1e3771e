// The scheduled jobs every instance runs on the queue; the lease in ScheduleLease makes each run once across
// instances. Row-shaped work (webhook deliveries, bulk job items) runs on the queue's worker loop (./worker.ts).
import { endExpiredGrace, GRACE_EVERY_MS, GRACE_TASK } from "../billing/grace";
import type { Db } from "../db/client";
import { setting } from "../env";
import { FEED_JOB_PREFIX, feedRefreshTasks } from "../feeds/schedule";
import { runRetentionPurge } from "../maintenance/purge";
import { monitorTask } from "../monitors/task";
import { logger } from "../operate/log";
import { runSenderChecks, SENDER_CHECK_EVERY_MS, SENDER_CHECK_TASK } from "../senders/monitor";
import { popularNamesRefreshTasks } from "../vulnerabilities/popular-refresh";
import { startScheduler, type ScheduledTask, type Scheduler } from "../queue/scheduled";

export const PURGE_TASK = "retention.purge";

/**
 * The sender check, the end of billing grace, the run of due monitors, the hourly retention purge, each feed's refresh and the refresh of
 * the popular-name lists built from a configured source (PyPI's).
 */
export function scheduledTasks(): ScheduledTask[] {
  return [
    { name: SENDER_CHECK_TASK, everyMs: SENDER_CHECK_EVERY_MS, run: (db, now) => runSenderChecks(db, now) },
    { name: GRACE_TASK, everyMs: GRACE_EVERY_MS, run: (db, now) => endExpiredGrace(db, now) },
    monitorTask(),
    {
      name: PURGE_TASK,
      everyMs: 3_600_000,
      run: async (db, now) =>
        logger().info({ component: "purge", ...(await runRetentionPurge(db, now)) }, "retention purge done"),
    },
    ...feedRefreshTasks(),
    ...popularNamesRefreshTasks(),
  ];
}

let started: Scheduler | null = null;

/** Starts the scheduler once per process (idempotent). `SERVICE_SCHEDULER=0` leaves the jobs to other instances. */
export function startScheduledTasks(db: Db): void {
  if (started || !setting("SERVICE_SCHEDULER")) return;
  // Feed downloads run one at a time in an instance, so a start-up with many stale feeds does not fetch them all at once.
  started = startScheduler(db, scheduledTasks(), { serial: [FEED_JOB_PREFIX] });
}

/** Stops scheduling (shutdown); resolves when the jobs under way in this instance have finished. */
export function stopScheduledTasks(): Promise<void> {
  const s = started;
  started = null;
  return s ? s.stop() : Promise.resolve();
}

export const scheduledTasksRunning = (): boolean => started !== null;

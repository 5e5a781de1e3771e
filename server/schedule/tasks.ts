// The periodic tasks every instance schedules; the lease in ScheduleLease makes each run once across instances.
import { endExpiredGrace, GRACE_EVERY_MS, GRACE_TASK } from "../billing/grace";
import type { Db } from "../db/client";
import { runSenderChecks, SENDER_CHECK_EVERY_MS, SENDER_CHECK_TASK } from "../senders/monitor";
import { startScheduler, type ScheduledTask, type Scheduler } from "./scheduler";

export const SCHEDULED_TASKS: ScheduledTask[] = [
  { name: SENDER_CHECK_TASK, everyMs: SENDER_CHECK_EVERY_MS, run: (db, now) => runSenderChecks(db, now) },
  { name: GRACE_TASK, everyMs: GRACE_EVERY_MS, run: (db, now) => endExpiredGrace(db, now) },
];

let started: Scheduler | null = null;

/** Starts the scheduler once per process (idempotent). `SERVICE_SCHEDULER=0` leaves the tasks to other instances. */
export function startScheduledTasks(db: Db): void {
  if (started || process.env.SERVICE_SCHEDULER === "0") return;
  started = startScheduler(db, SCHEDULED_TASKS);
}

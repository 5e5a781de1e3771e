// A small scheduler for periodic work that must run once across all app instances (e.g. the daily sender
// check). Each task has a row in ScheduleLease; an instance runs the task only when its conditional UPDATE moves
// `leaseUntil` forward from a past value, which exactly one instance can do (PostgreSQL re-checks the WHERE on
// the row it updates). Deliberately small: a durable job queue is a separate piece of work.
import type { Db } from "../db/client";

export interface ScheduledTask {
  name: string;
  /** How often the task runs across all instances. */
  everyMs: number;
  /** After a failed run, how soon any instance may try again (default: an hour, or everyMs when shorter). */
  retryMs?: number;
  run(db: Db, now: Date): Promise<unknown>;
}

export type RunOutcome = "ran" | "not_due" | "failed";

/** True when this caller won the lease: the task was due and is now leased until now + everyMs. */
export async function claimLease(db: Db, task: Pick<ScheduledTask, "name" | "everyMs">, now = new Date()): Promise<boolean> {
  await db.scheduleLease.createMany({ data: [{ name: task.name, leaseUntil: new Date(0) }], skipDuplicates: true });
  const won = await db.scheduleLease.updateMany({
    where: { name: task.name, leaseUntil: { lte: now } },
    data: { leaseUntil: new Date(now.getTime() + task.everyMs) },
  });
  return won.count === 1;
}

/** Runs the task if it is due and this caller wins the lease. A failure is kept on the lease row and retried sooner. */
export async function runIfDue(db: Db, task: ScheduledTask, now = new Date()): Promise<RunOutcome> {
  if (!(await claimLease(db, task, now))) return "not_due";
  try {
    await task.run(db, now);
    await db.scheduleLease.update({ where: { name: task.name }, data: { lastRunAt: now, lastError: null } });
    return "ran";
  } catch (err) {
    const retryMs = task.retryMs ?? Math.min(task.everyMs, 60 * 60 * 1000);
    await db.scheduleLease
      .update({ where: { name: task.name }, data: { lastError: String((err as Error)?.message ?? err).slice(0, 500), leaseUntil: new Date(now.getTime() + retryMs) } })
      .catch(() => undefined);
    console.error(`scheduled task ${task.name} failed:`, err);
    return "failed";
  }
}

export interface Scheduler {
  /** Checks every task once now (what the timer does); resolves when due tasks have finished. */
  tick(now?: Date): Promise<Record<string, RunOutcome | "busy">>;
  stop(): void;
}

/**
 * Polls the tasks every `pollMs` (default a minute: one cheap UPDATE per task). A task still running in this
 * instance is not started again. The timer is unref'd, so it never keeps the process alive.
 */
export function startScheduler(db: Db, tasks: ScheduledTask[], opts: { pollMs?: number; firstTickMs?: number } = {}): Scheduler {
  const running = new Set<string>();
  const tick = async (now = new Date()) => {
    const out: Record<string, RunOutcome | "busy"> = {};
    await Promise.all(
      tasks.map(async (task) => {
        if (running.has(task.name)) return void (out[task.name] = "busy");
        running.add(task.name);
        try {
          out[task.name] = await runIfDue(db, task, now);
        } catch (err) {
          // The lease query itself failed (database unavailable): try again at the next tick.
          console.error(`scheduler: ${task.name}:`, err);
          out[task.name] = "failed";
        } finally {
          running.delete(task.name);
        }
      }),
    );
    return out;
  };
  const first = setTimeout(() => void tick(), opts.firstTickMs ?? 10_000);
  first.unref();
  const timer = setInterval(() => void tick(), opts.pollMs ?? 60_000);
  timer.unref();
  return {
    tick,
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}

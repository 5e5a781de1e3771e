// Scheduled jobs of the queue: periodic work that must run once across all app instances (the retention purge, feed
// refreshes, the daily sender check, the end of billing grace). Each job has a row in ScheduleLease; an instance runs
// the job only when its conditional UPDATE moves `leaseUntil` forward from a past value, which exactly one instance
// can do (PostgreSQL re-checks the WHERE on the row it updates; PGlite runs one statement at a time). A failed run is
// retried with exponential backoff (never later than the job's own cadence) and logged once per cadence, not on
// every try. Row-shaped work (webhook deliveries, bulk items) runs on the same module's worker loop (./worker.ts).
import type { Db } from "../db/client";
import { logger } from "../operate/log";
import { noteStoreOutage } from "../operate/outage";

export interface ScheduledTask {
  name: string;
  /** How often the task runs across all instances. */
  everyMs: number;
  /**
   * First retry delay after a failed run (default a minute); it doubles with each consecutive failure and never
   * exceeds `everyMs`.
   */
  retryMs?: number;
  /** When a job that has never run is first due (default: at once). Feeds use their data's age. */
  firstDueAt?(db: Db, now: Date): Promise<Date>;
  run(db: Db, now: Date): Promise<unknown>;
}

export type RunOutcome = "ran" | "not_due" | "failed";

/** Delay before the next try after `failures` consecutive failures: retryMs, 2×, 4×, … capped at everyMs. */
export function retryDelayMs(task: Pick<ScheduledTask, "everyMs" | "retryMs">, failures: number): number {
  const base = task.retryMs ?? 60_000;
  const exp = Math.min(Math.max(failures - 1, 0), 30);
  return Math.min(task.everyMs, base * 2 ** exp);
}

async function ensureRow(db: Db, task: Pick<ScheduledTask, "name" | "firstDueAt">, now: Date): Promise<void> {
  const exists = await db.scheduleLease.findUnique({ where: { name: task.name }, select: { name: true } });
  if (exists) return;
  const due = task.firstDueAt ? await task.firstDueAt(db, now).catch(() => new Date(0)) : new Date(0);
  await db.scheduleLease.createMany({ data: [{ name: task.name, leaseUntil: due }], skipDuplicates: true });
}

/** True when this caller won the lease: the task was due and is now leased until now + everyMs. */
export async function claimLease(
  db: Db,
  task: Pick<ScheduledTask, "name" | "everyMs" | "firstDueAt">,
  now = new Date(),
): Promise<boolean> {
  await ensureRow(db, task, now);
  const won = await db.scheduleLease.updateMany({
    where: { name: task.name, leaseUntil: { lte: now } },
    data: { leaseUntil: new Date(now.getTime() + task.everyMs) },
  });
  return won.count === 1;
}

/**
 * Runs the task if it is due and this caller wins the lease. A failure is kept on the lease row, counted, and
 * retried after the backoff delay; it is logged when the streak starts and then at most once per cadence.
 */
export async function runIfDue(db: Db, task: ScheduledTask, now = new Date()): Promise<RunOutcome> {
  if (!(await claimLease(db, task, now))) return "not_due";
  try {
    await task.run(db, now);
    await db.scheduleLease.update({
      where: { name: task.name },
      data: { lastRunAt: now, lastError: null, failures: 0, errorLoggedAt: null },
    });
    return "ran";
  } catch (err) {
    const message = String((err as Error)?.message ?? err).slice(0, 500);
    const row = await db.scheduleLease.findUnique({ where: { name: task.name } }).catch(() => null);
    const failures = (row?.failures ?? 0) + 1;
    const logNow = !row?.errorLoggedAt || now.getTime() - row.errorLoggedAt.getTime() >= task.everyMs;
    await db.scheduleLease
      .update({
        where: { name: task.name },
        data: {
          lastError: message,
          failures,
          lastFailedAt: now,
          leaseUntil: new Date(now.getTime() + retryDelayMs(task, failures)),
          ...(logNow ? { errorLoggedAt: now } : {}),
        },
      })
      .catch(() => undefined);
    if (logNow)
      logger().error(
        { component: "queue", job: task.name, failures, err: message },
        `scheduled job ${task.name} failed; retrying with backoff`,
      );
    return "failed";
  }
}

/**
 * What a task does, done outside its schedule (an operator's `feeds refresh`) and successful: its failure streak is
 * over, so the status stops reporting the last scheduled failure. Its lease (next run) is left as it is; a task
 * that never ran has no row, and none is made.
 */
export async function recordSuccessOutsideSchedule(db: Db, name: string, now = new Date()): Promise<void> {
  await db.scheduleLease.updateMany({
    where: { name },
    data: { lastRunAt: now, lastError: null, failures: 0, errorLoggedAt: null },
  });
}

export interface ScheduledJobState {
  name: string;
  nextRunAt: Date;
  lastRunAt: Date | null;
  lastError: string | null;
  lastFailedAt: Date | null;
  failures: number;
}

/** What the queue knows of these jobs (jobs that never ran are absent). */
export async function scheduledJobStates(db: Db, names: string[]): Promise<Map<string, ScheduledJobState>> {
  const rows = await db.scheduleLease.findMany({ where: { name: { in: names } } });
  return new Map(
    rows.map((r) => [
      r.name,
      {
        name: r.name,
        nextRunAt: r.leaseUntil,
        lastRunAt: r.lastRunAt,
        lastError: r.lastError,
        lastFailedAt: r.lastFailedAt,
        failures: r.failures,
      },
    ]),
  );
}

export interface Scheduler {
  /** Checks every task once now (what the timer does); resolves when due tasks have finished. */
  tick(now?: Date): Promise<Record<string, RunOutcome | "busy">>;
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  pollMs?: number;
  firstTickMs?: number;
  /** Tasks whose names start with one of these prefixes run one at a time (e.g. feed downloads). */
  serial?: string[];
}

/**
 * Polls the tasks every `pollMs` (default a minute: one cheap UPDATE per task). A task still running in this
 * instance is not started again. The timer is unref'd, so it never keeps the process alive.
 */
export function startScheduler(db: Db, tasks: ScheduledTask[], opts: SchedulerOptions = {}): Scheduler {
  const running = new Set<string>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  const serialGroup = (name: string) => opts.serial?.find((p) => name.startsWith(p)) ?? null;
  const one = async (task: ScheduledTask, now: Date): Promise<RunOutcome | "busy"> => {
    if (running.has(task.name)) return "busy";
    running.add(task.name);
    try {
      return await runIfDue(db, task, now);
    } catch (err) {
      // The lease query itself failed (database unavailable): try again at the next tick.
      if (!noteStoreOutage(err, `scheduler ${task.name}`))
        logger().error({ component: "queue", job: task.name, err }, "scheduler could not claim a job");
      return "failed";
    } finally {
      running.delete(task.name);
    }
  };
  const tick = async (now = new Date()) => {
    const out: Record<string, RunOutcome | "busy"> = {};
    if (stopped) return out;
    const groups = new Map<string, ScheduledTask[]>();
    const parallel: ScheduledTask[] = [];
    for (const t of tasks) {
      const g = serialGroup(t.name);
      if (g) groups.set(g, [...(groups.get(g) ?? []), t]);
      else parallel.push(t);
    }
    const work = Promise.all([
      ...parallel.map(async (t) => void (out[t.name] = await one(t, now))),
      ...[...groups.values()].map(async (list) => {
        for (const t of list) {
          if (stopped) break;
          out[t.name] = await one(t, now);
        }
      }),
    ]);
    inFlight.add(work);
    try {
      await work;
    } finally {
      inFlight.delete(work);
    }
    return out;
  };
  const first = setTimeout(() => void tick(), opts.firstTickMs ?? 10_000);
  first.unref();
  const timer = setInterval(() => void tick(), opts.pollMs ?? 60_000);
  timer.unref();
  return {
    tick,
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}

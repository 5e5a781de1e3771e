// The queue's worker loop for row-shaped work (webhook deliveries, bulk job items). The rows are the durable part:
// each kind claims its due rows with a lease in one statement (FOR UPDATE SKIP LOCKED or a conditional UPDATE), so
// any number of instances can work one database and a crashed instance's claims run again once their lease
// expires. This loop is what every kind shares: a timer, passes repeated while there is a backlog, a wake-up for
// work created in this process, and a stop that waits until every claimed row of the pass under way is settled.
import { getDb, type Db } from "../db/client";
import { logger } from "../operate/log";
import { noteStoreOutage } from "../operate/outage";

export interface QueueWorkerSpec {
  /** Name for logs, readiness and shutdown, e.g. "webhook_delivery". */
  name: string;
  pollMs: number;
  /** One pass: claim, run and settle rows; answers true when another pass should follow at once (a backlog). */
  pass(db: Db): Promise<boolean>;
}

interface Running {
  wake(): void;
  stop(): Promise<void>;
}

const g = globalThis as unknown as { __serviceQueueWorkers?: Map<string, Running> };
const workers = (g.__serviceQueueWorkers ??= new Map());

/** Starts the worker in this process (idempotent per name; the timer never keeps the process alive). */
export function startQueueWorker(spec: QueueWorkerSpec): void {
  if (workers.has(spec.name)) return;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    let done!: () => void;
    running = new Promise<void>((r) => (done = r));
    try {
      const db = await getDb();
      do {
        again = false;
        // Shutdown stops between passes: every row claimed by a pass is settled before the pass ends.
        while (!stopped && (await spec.pass(db)));
      } while (again && !stopped);
    } catch (err) {
      // An unreachable database is said once per interval (server/db/outage.ts), not once per poll.
      if (!noteStoreOutage(err, `queue worker ${spec.name}`))
        logger().error(
          { component: "queue", worker: spec.name, err },
          "queue worker pass failed; its claims expire and run again",
        );
    } finally {
      running = null;
      done();
    }
  };
  const timer = setInterval(() => void tick(), spec.pollMs);
  timer.unref();
  workers.set(spec.name, {
    wake: () => void tick(),
    stop: () => {
      stopped = true;
      clearInterval(timer);
      return running ?? Promise.resolve();
    },
  });
}

/** Starts a pass now (work was just created in this process). */
export function wakeQueueWorker(name: string): void {
  workers.get(name)?.wake();
}

/** Stops claiming; resolves once the pass under way has settled every row it claimed. */
export function stopQueueWorker(name: string): Promise<void> {
  const w = workers.get(name);
  workers.delete(name);
  return w ? w.stop() : Promise.resolve();
}

export function queueWorkerRunning(name: string): boolean {
  return workers.has(name);
}

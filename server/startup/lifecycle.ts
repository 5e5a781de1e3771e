// Shutdown of the work this process does besides answering requests, in two steps that the HTTP server calls
// (scripts/graceful-shutdown.mjs, through globalThis because it is plain JavaScript outside Next's bundle):
//   begin  (at SIGTERM): readiness turns 503; the queue's workers (webhook deliveries, bulk job items) stop claiming and
//          settle what they claimed; the scheduler stops starting jobs (a job under way gets a few seconds: an
//          interrupted purge or feed refresh loses nothing, the next run does it).
//   finish (after the last in-flight request): the metrics listener and the database close.
import { closeDb } from "../db/client";
import { stopScheduledTasks } from "./tasks";
import { stopBulkWorker } from "../bulk/worker";
import { stopWebhookWorker } from "../webhooks/worker";
import { logger } from "../operate/log";
import { stopMetricsListener } from "../operate/metrics-listener";
import { processState } from "../operate/state";
import { tracing } from "../operate/tracing";

export interface Lifecycle {
  beginShutdown(): Promise<void>;
  finishShutdown(): Promise<void>;
}

let begun: Promise<void> | null = null;

export const lifecycle: Lifecycle = {
  beginShutdown() {
    processState().shuttingDown = true;
    begun ??= (async () => {
      logger().info("shutdown begun: readiness is 503, background workers stop claiming");
      const scheduled = stopScheduledTasks();
      await Promise.all([
        stopWebhookWorker(),
        stopBulkWorker(),
        Promise.race([scheduled, new Promise((r) => setTimeout(r, 5_000).unref())]),
      ]);
      logger().info("background workers stopped; their claims are settled");
    })();
    return begun;
  },
  async finishShutdown() {
    await lifecycle.beginShutdown();
    await stopMetricsListener();
    await closeDb();
    logger().info("database closed");
    await tracing()
      ?.shutdown()
      .catch((err) => logger().warn({ err }, "flushing traces failed"));
  },
};

export function registerLifecycle(): void {
  (globalThis as unknown as { __serviceLifecycle?: Lifecycle }).__serviceLifecycle = lifecycle;
}

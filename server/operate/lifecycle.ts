// Shutdown of the work this process does besides answering requests, in two steps that the HTTP server calls
// (scripts/graceful-shutdown.mjs, through globalThis because it is plain JavaScript outside Next's bundle):
//   begin  (at SIGTERM): readiness turns 503; the webhook and bulk job workers stop claiming and settle what they claimed; the
//          hourly purge stops.
//   finish (after the last in-flight request): the metrics listener and the database close.
import { closeDb } from "../db/client";
import { stopRetentionPurge } from "../maintenance/purge";
import { stopBulkWorker } from "../bulk/worker";
import { stopWebhookWorker } from "../webhooks/worker";
import { logger } from "./log";
import { stopMetricsListener } from "./metrics-listener";
import { processState } from "./state";
import { tracing } from "./tracing";

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
      stopRetentionPurge();
      await Promise.all([stopWebhookWorker(), stopBulkWorker()]);
      logger().info("background workers stopped; their claims are settled");
    })();
    return begun;
  },
  async finishShutdown() {
    await lifecycle.beginShutdown();
    await stopMetricsListener();
    await closeDb();
    logger().info("database closed");
    await tracing()?.shutdown().catch((err) => logger().warn({ err }, "flushing traces failed"));
  },
};

export function registerLifecycle(): void {
  (globalThis as unknown as { __serviceLifecycle?: Lifecycle }).__serviceLifecycle = lifecycle;
}

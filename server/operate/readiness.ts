// Readiness: may a load balancer send this instance traffic? Each part is named in the answer so an operator
// sees which one holds it back. Liveness (/healthz) is separate and never touches the database.
import { readdirSync, existsSync } from "node:fs";
import path from "node:path";
import type { Db } from "../db/client";
import { migrationsDir } from "../db/migrate";
import { setting } from "../env";
import { readinessDbTimeoutMs } from "./config";
import { scheduledFeedRefreshEnabled } from "../feeds/config";
import { processState, type ProcessState } from "./state";

export interface PartStatus {
  status: "ok" | "not_ready";
  detail?: string;
  [extra: string]: unknown;
}

export interface Readiness {
  status: "ready" | "not_ready" | "draining";
  checks: { database: PartStatus; migrations: PartStatus; shipped_data: PartStatus; workers: PartStatus };
}

let expected: string[] | null = null;
function expectedMigrations(): string[] {
  const dir = migrationsDir();
  expected ??= readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort();
  return expected;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Checks every part. `db` defaults to the process's client; while it is still opening (migrations run before it
 * is handed out) the database counts as not ready. From the moment shutdown begins the answer is "draining"
 * without asking the database, which may already be closing.
 */
export async function checkReadiness(
  opts: { db?: () => Promise<Db>; state?: ProcessState; webhookWorkerEnabled?: boolean; timeoutMs?: number } = {},
): Promise<Readiness> {
  const state = opts.state ?? processState();
  const workersOn = opts.webhookWorkerEnabled ?? setting("SERVICE_WEBHOOK_WORKER");
  // Scheduled jobs (purge, feed refresh) run once across instances; SERVICE_SCHEDULER=0 leaves them to the others.
  const scheduler = setting("SERVICE_SCHEDULER") ? "running" : "disabled";
  // A load that failed is said as such: "still loading" sent the operator waiting for ever.
  const shipped: PartStatus = state.dataLoaded
    ? { status: "ok" }
    : state.dataDeferred
      ? { status: "ok", detail: "loads at first use (SERVICE_WARM_DATA=0)" }
      : state.dataLoadError
        ? { status: "not_ready", detail: `shipped data failed to load: ${state.dataLoadError}` }
        : { status: "not_ready", detail: "shipped data is still loading" };
  const workers: PartStatus = state.workersStarted
    ? {
        status: "ok",
        webhook_delivery: workersOn ? "running" : "disabled",
        bulk_jobs: setting("SERVICE_BULK_WORKER") ? "running" : "disabled",
        retention_purge: scheduler,
        feed_refresh: scheduler === "running" && scheduledFeedRefreshEnabled() ? "running" : "disabled",
      }
    : { status: "not_ready", detail: "background workers have not started" };
  if (state.shuttingDown) {
    const draining: PartStatus = { status: "not_ready", detail: "shutting down" };
    return {
      status: "draining",
      checks: {
        database: draining,
        migrations: draining,
        shipped_data: shipped,
        workers: { status: "not_ready", detail: "stopping" },
      },
    };
  }

  let database: PartStatus;
  let migrations: PartStatus;
  const started = Date.now();
  try {
    const openDb = opts.db ?? (async () => (await import("../db/client")).getDb());
    const rows = await withTimeout(
      openDb().then((db) =>
        db.$queryRawUnsafe<{ migration_name: string }[]>(
          `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        ),
      ),
      opts.timeoutMs ?? readinessDbTimeoutMs(),
    );
    database = { status: "ok", latency_ms: Date.now() - started };
    const applied = new Set(rows.map((r) => r.migration_name));
    const pending = expectedMigrations().filter((n) => !applied.has(n));
    migrations = pending.length
      ? {
          status: "not_ready",
          detail: `${pending.length} migration(s) not applied`,
          applied: applied.size,
          pending: pending.length,
        }
      : { status: "ok", applied: applied.size, pending: 0 };
  } catch (err) {
    if (missingTable(err)) {
      // The database answered: it has no migration table yet, so every migration is still to be applied.
      database = { status: "ok", latency_ms: Date.now() - started };
      migrations = {
        status: "not_ready",
        detail: `migrations pending: the database has none of the ${expectedMigrations().length} migrations applied`,
        applied: 0,
        pending: expectedMigrations().length,
      };
    } else {
      database = { status: "not_ready", detail: `database did not answer: ${describeError(err)}` };
      migrations = { status: "not_ready", detail: "unknown while the database does not answer" };
    }
  }
  const checks = { database, migrations, shipped_data: shipped, workers };
  const ready = Object.values(checks).every((c) => c.status === "ok");
  return { status: ready ? "ready" : "not_ready", checks };
}

/** A readable reason for a failed database call, never empty: the message, else its code or type. */
export function describeError(err: unknown): string {
  const e = err as { message?: unknown; code?: unknown; name?: unknown; cause?: unknown } | null;
  const message = typeof e?.message === "string" ? e.message.split("\n")[0].trim().slice(0, 200) : "";
  if (message) return message;
  if (typeof e?.code === "string" && e.code) return `error ${e.code} without a message`;
  if (e?.cause) return describeError(e.cause);
  const name = typeof e?.name === "string" && e.name !== "Error" ? e.name : "";
  return name ? `${name} without a message` : "the driver gave no reason";
}

/** The query failed because the table does not exist (SQLSTATE 42P01, in whichever wrapper the driver used). */
function missingTable(err: unknown): boolean {
  let cur: unknown = err;
  for (let i = 0; i < 6 && cur && typeof cur === "object"; i++) {
    const o = cur as {
      code?: unknown;
      kind?: unknown;
      message?: unknown;
      cause?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    if (o.code === "42P01" || o.kind === "TableDoesNotExist") return true;
    if (typeof o.message === "string" && /relation "?_prisma_migrations"? does not exist/i.test(o.message)) return true;
    cur = o.meta?.driverAdapterError ?? o.cause;
  }
  return false;
}

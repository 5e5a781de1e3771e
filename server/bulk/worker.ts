// The bulk job worker: claims items with a lease (safe across app instances and restarts), runs each through the
// metered procedure of its kind with the units already paid (ctx.prepaid; run by the API layer through
// server/bulk/procedures.ts), and records each item's result once, with what it gives back (the charging module's
// answer: server/api/charging.ts bulkItemGivenBack).
// Fairness: items are claimed round-robin across running jobs (the first item of every job before the second of
// any), at most `perJob` running per job, so one large DNS job never starves another workspace's job.
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { toErrorBody } from "../errors";
import { newId } from "../ids";
import { logger } from "../operate/log";
import { startQueueWorker, stopQueueWorker, wakeQueueWorker } from "../queue/worker";
import { refundUnits } from "../quota/adjust";
import { workspaceEntitlements } from "../workspaces/workspaces";
import { bulkConcurrency, bulkLeaseMs, bulkPerJob, bulkPollMs, bulkWorkerEnabled } from "./config";
import { KINDS, type BulkKind } from "./kinds";
import { bulkProcedures, bulkProceduresProvided, jobCharging, type GivenBack, type Prepaid } from "./procedures";

const MAX_ATTEMPTS = 3;

export interface ClaimedItem {
  id: string;
  jobId: string;
  position: number;
  target: string;
  kind: string;
  units: number;
  attempts: number;
  claimToken: string;
}

/**
 * Claims up to `limit` runnable items (queued, or running with an expired claim) of running jobs. Two instances
 * can never claim the same item: PostgreSQL re-checks the UPDATE's WHERE on a row another transaction has just
 * claimed, and the row no longer qualifies.
 */
export async function claimBulkItems(
  db: Db,
  opts: { limit?: number; perJob?: number; leaseMs?: number } = {},
): Promise<ClaimedItem[]> {
  const token = newId("clm");
  const rows = await db.$queryRawUnsafe<ClaimedItem[]>(
    `WITH candidates AS (
       SELECT i."id", i."jobId", row_number() OVER (PARTITION BY i."jobId" ORDER BY i."position") AS rn, j."createdAt"
       FROM "BulkItem" i JOIN "BulkJob" j ON j."id" = i."jobId"
       WHERE j."status" = 'running'
         AND (i."status" = 'queued' OR (i."status" = 'running' AND i."claimedUntil" < now()))
     ), busy AS (
       SELECT "jobId", count(*) AS n FROM "BulkItem"
       WHERE "status" = 'running' AND "claimedUntil" >= now() GROUP BY "jobId"
     ), picked AS (
       SELECT c."id" FROM candidates c LEFT JOIN busy b ON b."jobId" = c."jobId"
       WHERE c.rn + COALESCE(b.n, 0) <= $2::int
       ORDER BY c.rn, c."createdAt", c."jobId"
       LIMIT $1::int
     )
     UPDATE "BulkItem" u
     SET "status" = 'running', "claimToken" = $3::text, "claimedUntil" = now() + ($4::int * interval '1 millisecond'),
         "attempts" = u."attempts" + 1, "startedAt" = COALESCE(u."startedAt", now())
     FROM picked
     WHERE u."id" = picked."id"
       AND (u."status" = 'queued' OR (u."status" = 'running' AND u."claimedUntil" < now()))
     RETURNING u."id", u."jobId", u."position", u."target", u."kind", u."units", u."attempts", u."claimToken"`,
    opts.limit ?? bulkConcurrency(),
    opts.perJob ?? bulkPerJob(),
    token,
    opts.leaseMs ?? bulkLeaseMs(),
  );
  return rows.map((r) => ({
    ...r,
    position: Number(r.position),
    units: Number(r.units),
    attempts: Number(r.attempts),
  }));
}

async function principalFor(
  db: Db,
  job: { workspaceId: string; createdByUserId: string | null; createdByKeyId: string | null; createdBy: string },
): Promise<Principal> {
  // The workspace's plans now: a downgrade after the job was created refuses its remaining items (and refunds them).
  const entitlements = await workspaceEntitlements(db, job.workspaceId);
  if (job.createdByKeyId)
    return { kind: "api_key", apiKeyId: job.createdByKeyId, workspaceId: job.workspaceId, entitlements };
  return {
    kind: "member",
    userId: job.createdByUserId ?? "",
    email: job.createdBy,
    workspaceId: job.workspaceId,
    role: "member",
    entitlements,
    lookupsBlocked: null,
  };
}

type Settled = "succeeded" | "failed" | "lost";

/** Runs one claimed item and records its outcome, unless its claim was lost meanwhile (then another run records it). */
export async function runBulkItem(db: Db, item: ClaimedItem): Promise<Settled> {
  const job = await db.bulkJob.findUnique({ where: { id: item.jobId } });
  if (!job) return "lost";
  if (item.attempts > MAX_ATTEMPTS) {
    // Its worker died this many times: stop trying. It was never answered, so its units go back.
    const errorMessage = `The lookup could not be completed after ${MAX_ATTEMPTS} attempts.`;
    return settle(
      db,
      item,
      { status: "failed", errorCode: "INTERNAL_ERROR", errorMessage },
      jobCharging().bulkItemGivenBack(item.units, { abandoned: errorMessage }),
    );
  }
  const spec = KINDS[item.kind as BulkKind];
  const input = spec.input(item.target);
  const prepaid: Prepaid = { units: item.units, admitted: false };
  try {
    if ("error" in input) throw new Error(String(input.error));
    const principal = await principalFor(db, job);
    const out = await bulkProcedures().run({ db, kind: item.kind as BulkKind, input, principal, prepaid });
    const plain = JSON.parse(JSON.stringify(out ?? null));
    // Targets of the item that no source answered (a CIDR range's addresses) go back; the rest counts.
    const back = jobCharging().bulkItemGivenBack(item.units, prepaid);
    return settle(db, item, { status: "succeeded", summary: spec.summary(plain), result: plain }, back);
  } catch (err) {
    const { body, status } = toErrorBody(err);
    if (status >= 500 && status !== 503) logger().error({ err, item: item.id, kind: item.kind }, "bulk item failed");
    // Refused before the point where a single request reserves (input, plan, SSRF guard), or not answered after it
    // (a 5xx: the ladder's givenBack): its units go back. A 4xx after admission (a source's "not found") counts.
    const refund = jobCharging().bulkItemGivenBack(item.units, { ...prepaid, failed: body.error.message });
    return settle(db, item, { status: "failed", errorCode: body.error.code, errorMessage: body.error.message }, refund);
  }
}

async function settle(
  db: Db,
  item: ClaimedItem,
  outcome: {
    status: "succeeded" | "failed";
    summary?: unknown;
    result?: unknown;
    errorCode?: string;
    errorMessage?: string;
  },
  refund: GivenBack | null,
): Promise<Settled> {
  const units = Math.min(item.units, refund?.units ?? 0);
  return db.$transaction(async (tx) => {
    // The job's row lock orders the settling of its items: the last one to settle sees every other one settled
    // and completes the job (without it, two last items settling at once would each see the other still open).
    await tx.$queryRawUnsafe(`SELECT 1 FROM "BulkJob" WHERE "id" = $1 FOR UPDATE`, item.jobId);
    const won = await tx.bulkItem.updateMany({
      where: { id: item.id, claimToken: item.claimToken, status: "running" },
      data: {
        status: outcome.status,
        summary: (outcome.summary ?? undefined) as never,
        result: (outcome.result ?? undefined) as never,
        errorCode: outcome.errorCode ?? null,
        errorMessage: outcome.errorMessage ?? null,
        // True once any of its units went back, and how many; the job's `units.refunded` sums them.
        refunded: units > 0,
        unitsRefunded: units,
        claimToken: null,
        claimedUntil: null,
        finishedAt: new Date(),
      },
    });
    if (won.count !== 1) return "lost" as const;
    const job = await tx.bulkJob.findUniqueOrThrow({ where: { id: item.jobId } });
    if (refund && units > 0) {
      await refundUnits(tx as unknown as Db, {
        workspaceId: job.workspaceId,
        periodStart: job.periodStart,
        units,
        requestId: job.requestId,
        endpoint: "bulk.refund",
        reason: `Job ${job.id} line ${item.position} ${refund.reason}`.slice(0, 500),
        apiKeyId: job.createdByKeyId,
        userId: job.createdByUserId,
      });
      await tx.bulkJob.update({ where: { id: job.id }, data: { unitsRefunded: { increment: units } } });
    }
    const open = await tx.bulkItem.count({ where: { jobId: job.id, status: { in: ["queued", "running"] } } });
    if (open === 0 && !job.finishedAt) {
      await tx.bulkJob.update({
        where: { id: job.id },
        data: { finishedAt: new Date(), ...(job.status === "running" ? { status: "completed" } : {}) },
      });
    }
    return outcome.status;
  });
}

/** One pass: claims what this instance may run and runs it; returns how many items were claimed. */
export async function runBulkItemsOnce(
  db: Db,
  opts: Parameters<typeof claimBulkItems>[1] = {},
): Promise<{ claimed: number; outcomes: Settled[] }> {
  // Until the API layer has handed over the procedures (server/api/bulk-procedures.ts, registered at start), claim nothing.
  if (!bulkProceduresProvided()) return { claimed: 0, outcomes: [] };
  const items = await claimBulkItems(db, opts);
  const outcomes = await Promise.all(
    items.map((i) =>
      runBulkItem(db, i).catch((err) => {
        logger().error({ err, item: i.id }, "bulk item could not be recorded; its claim expires and it runs again");
        return "lost" as const;
      }),
    ),
  );
  return { claimed: items.length, outcomes };
}

/** Runs passes until nothing is runnable (tests, the benchmark and the admin command). */
export async function drainBulkItems(db: Db, opts: Parameters<typeof claimBulkItems>[1] = {}): Promise<number> {
  let total = 0;
  for (;;) {
    const { claimed } = await runBulkItemsOnce(db, opts);
    if (claimed === 0) return total;
    total += claimed;
  }
}

const WORKER = "bulk_jobs";

/** Runs bulk items on the queue's worker loop (idempotent); SERVICE_BULK_WORKER=0 disables it on this instance. */
export function startBulkWorker(): void {
  if (!bulkWorkerEnabled()) return;
  startQueueWorker({
    name: WORKER,
    pollMs: bulkPollMs(),
    pass: async (db) => (await runBulkItemsOnce(db)).claimed > 0,
  });
}

/** Starts a pass now (a job was just created in this instance). */
export function wakeBulkWorker(): void {
  wakeQueueWorker(WORKER);
}

/** Stops claiming; resolves once the pass under way has recorded every item it claimed. */
export function stopBulkWorker(): Promise<void> {
  return stopQueueWorker(WORKER);
}

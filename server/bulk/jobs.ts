// Bulk jobs: plan (kind and cost of every line, problems by line number), create (one atomic reservation of the
// whole cost, then the job and its items in the same transaction), read, list, cancel (refund what never ran) and
// export. The worker (worker.ts) runs the items through the same metered procedures as /v1. What a line costs and
// what a cancelled job gives back are the charging module's answers, and the reservation is the ladder's step for a
// job's payer, both handed in by the API layer (./procedures.ts: server/api/charging.ts, server/api/ladder.ts).
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { refuseUnknownCursor } from "../pages";
import { csvCell } from "../events/csv";
import { newId, sortableId } from "../ids";
import type { Entitlements } from "../plans/catalog";
import { periodStart } from "../quota/period";
import { refundUnits } from "../quota/adjust";
import { payerOf, type QuotaState } from "../quota/reserve";
import type { Principal } from "../auth/principal";
import { BULK_KINDS, detectKind, KINDS, type BulkKind } from "./kinds";
import { bulkProcedures, jobCharging } from "./procedures";

export const MAX_BULK_TARGETS = 100;

export interface PlannedLine {
  line: number;
  target: string;
  kind: BulkKind | null;
  units: number;
  /** Why this line cannot run (unreadable, or outside the plan), or null. */
  problem: string | null;
  problemKind: "invalid" | "capability" | null;
}

export interface JobPlan {
  lines: PlannedLine[];
  units: number;
  problems: PlannedLine[];
}

/** Every line's kind, cost and problem, without reserving or running anything. */
export async function planJob(entitlements: Entitlements, kind: string, targets: string[]): Promise<JobPlan> {
  const lines: PlannedLine[] = [];
  for (const [i, raw] of targets.entries()) {
    const target = raw.trim();
    const k = kind === "auto" ? detectKind(target) : (kind as BulkKind);
    const line: PlannedLine = { line: i + 1, target, kind: k, units: 0, problem: null, problemKind: null };
    lines.push(line);
    if (!target) {
      Object.assign(line, { problem: "empty line", problemKind: "invalid" });
      continue;
    }
    if (!k) {
      Object.assign(line, {
        problem: "not an IP address, CIDR range, AS number, domain, email address, URL, CVE id or package URL",
        problemKind: "invalid",
      });
      continue;
    }
    const spec = KINDS[k];
    const input = spec.input(target);
    if ("error" in input) {
      Object.assign(line, { problem: String(input.error), problemKind: "invalid" });
      continue;
    }
    const { problem, capability } = await bulkProcedures().inspect(k, input);
    if (problem) {
      Object.assign(line, { problem, problemKind: "invalid" });
      continue;
    }
    if (capability && !entitlements.capabilities.includes(capability)) {
      Object.assign(line, {
        problem: `${spec.label} lookups need ${bulkProcedures().plansWith(capability)}`,
        problemKind: "capability",
      });
      continue;
    }
    line.units = jobCharging().bulkItemUnits(spec.procedure, input);
  }
  const problems = lines.filter((l) => l.problem);
  return { lines, units: lines.reduce((n, l) => n + l.units, 0), problems };
}

function problemSummary(problems: PlannedLine[]): string {
  const shown = problems
    .slice(0, 10)
    .map((p) => `line ${p.line} (${JSON.stringify(p.target.slice(0, 80))}): ${p.problem}`);
  const more = problems.length > 10 ? `; and ${problems.length - 10} more` : "";
  return `${shown.join("; ")}${more}.`;
}

function assertTargetCount(targets: string[]) {
  if (targets.length < 1) throw new AppError("INVALID_REQUEST", "A job needs at least one target.");
  if (targets.length > MAX_BULK_TARGETS)
    throw new AppError(
      "INVALID_REQUEST",
      `A job holds at most ${MAX_BULK_TARGETS} targets; this one has ${targets.length}. Split the list.`,
    );
}

function creatorOf(principal: Principal, keyName: string | null) {
  return principal.kind === "member"
    ? { createdByUserId: principal.userId, createdByKeyId: null, createdBy: principal.email }
    : {
        createdByUserId: null,
        createdByKeyId: principal.apiKeyId,
        createdBy: keyName ? `API key ${keyName}` : "API key",
      };
}

export async function createJob(
  db: Db,
  a: { principal: Principal; requestId: string; kind: string; targets: string[]; now?: Date },
): Promise<{ job: JobView; quota: QuotaState }> {
  assertTargetCount(a.targets);
  const plan = await planJob(a.principal.entitlements, a.kind, a.targets);
  const invalid = plan.problems.filter((p) => p.problemKind === "invalid");
  if (invalid.length)
    throw new AppError(
      "INVALID_REQUEST",
      `Nothing was started or charged. Fix ${invalid.length === 1 ? "this line" : `these ${invalid.length} lines`}: ${problemSummary(invalid)}`,
    );
  const outside = plan.problems.filter((p) => p.problemKind === "capability");
  if (outside.length)
    throw new AppError("CAPABILITY_REQUIRED", `Nothing was started or charged: ${problemSummary(outside)}`);

  const now = a.now ?? new Date();
  const p = a.principal;
  const keyName =
    p.kind === "api_key"
      ? ((await db.apiKey.findUnique({ where: { id: p.apiKeyId }, select: { name: true } }))?.name ?? null)
      : null;
  const jobId = sortableId("job");
  const historyDays = Math.max(1, p.entitlements.historyDays);
  // One transaction: the reservation (one ledger row for the whole batch) and every item, or nothing at all.
  const quota = await db.$transaction(async (tx) => {
    const q = await bulkProcedures().reserveJob(tx as unknown as Db, {
      workspaceId: p.workspaceId,
      units: plan.units,
      limit: p.entitlements.monthlyUnits,
      requestId: a.requestId,
      endpoint: "bulk.job",
      ...payerOf(p),
      now,
    });
    if (!q) {
      throw new AppError(
        "QUOTA_EXCEEDED",
        `This job needs ${plan.units} lookup units and the monthly allowance of ${p.entitlements.monthlyUnits} has not that many left; nothing was started or charged. The allowance resets at the start of the next UTC month.`,
      );
    }
    await tx.bulkJob.create({
      data: {
        id: jobId,
        workspaceId: p.workspaceId,
        requestId: a.requestId,
        kind: a.kind,
        status: "running",
        ...creatorOf(p, keyName),
        total: plan.lines.length,
        unitsReserved: plan.units,
        periodStart: periodStart(now),
        createdAt: now,
        expiresAt: new Date(now.getTime() + historyDays * 86_400_000),
        items: {
          create: plan.lines.map((l) => ({
            id: newId("itm"),
            position: l.line,
            target: l.target,
            kind: l.kind!,
            units: l.units,
            status: "queued",
          })),
        },
      },
    });
    return q;
  });
  const job = await getJobOrThrow(db, p.workspaceId, jobId, { limit: 0 });
  return { job, quota };
}

export interface JobItemView {
  position: number;
  target: string;
  kind: BulkKind;
  status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
  units: number;
  refunded: boolean;
  refunded_units: number | null;
  summary: Record<string, unknown> | null;
  result: unknown;
  error: { code: string; message: string } | null;
  started_at: string | null;
  finished_at: string | null;
}

export interface JobView {
  id: string;
  kind: string;
  status: "running" | "completed" | "cancelled";
  created_by: string;
  created_at: string;
  finished_at: string | null;
  expires_at: string;
  units: { reserved: number; refunded: number; charged: number };
  progress: {
    total: number;
    queued: number;
    running: number;
    succeeded: number;
    failed: number;
    cancelled: number;
    done: number;
    percent: number;
    elapsed_ms: number;
    estimated_remaining_ms: number | null;
  };
  kinds: Record<string, number>;
  items?: JobItemView[];
  next_cursor?: number | null;
}

type JobRow = {
  id: string;
  kind: string;
  status: string;
  createdBy: string;
  createdAt: Date;
  finishedAt: Date | null;
  expiresAt: Date;
  unitsReserved: number;
  unitsRefunded: number;
  total: number;
};
type ItemRow = {
  position: number;
  target: string;
  kind: string;
  status: string;
  units: number;
  refunded: boolean;
  unitsRefunded: number | null;
  summary: unknown;
  result: unknown;
  errorCode: string | null;
  errorMessage: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
};

function itemView(i: ItemRow, withResult: boolean): JobItemView {
  return {
    position: i.position,
    target: i.target,
    kind: i.kind as BulkKind,
    status: i.status as JobItemView["status"],
    units: i.units,
    refunded: i.refunded,
    refunded_units: i.unitsRefunded,
    summary: (i.summary as Record<string, unknown> | null) ?? null,
    result: withResult ? (i.result ?? null) : undefined,
    error: i.errorCode ? { code: i.errorCode, message: i.errorMessage ?? "" } : null,
    started_at: i.startedAt?.toISOString() ?? null,
    finished_at: i.finishedAt?.toISOString() ?? null,
  };
}

function jobView(j: JobRow, counts: Record<string, number>, kinds: Record<string, number>, now = new Date()): JobView {
  const c = (s: string) => counts[s] ?? 0;
  const done = c("succeeded") + c("failed") + c("cancelled");
  const elapsed = (j.finishedAt ?? now).getTime() - j.createdAt.getTime();
  const ran = c("succeeded") + c("failed");
  const remaining = c("queued") + c("running");
  return {
    id: j.id,
    kind: j.kind,
    status: j.status as JobView["status"],
    created_by: j.createdBy,
    created_at: j.createdAt.toISOString(),
    finished_at: j.finishedAt?.toISOString() ?? null,
    expires_at: j.expiresAt.toISOString(),
    units: { reserved: j.unitsReserved, refunded: j.unitsRefunded, charged: j.unitsReserved - j.unitsRefunded },
    progress: {
      total: j.total,
      queued: c("queued"),
      running: c("running"),
      succeeded: c("succeeded"),
      failed: c("failed"),
      cancelled: c("cancelled"),
      done,
      percent: j.total ? Math.floor((done / j.total) * 100) : 100,
      elapsed_ms: Math.max(0, elapsed),
      estimated_remaining_ms:
        j.status === "running" && ran > 0 && remaining > 0
          ? Math.round((elapsed / ran) * remaining)
          : j.status === "running"
            ? null
            : 0,
    },
    kinds,
  };
}

async function countsFor(db: Db, jobIds: string[]) {
  const rows = jobIds.length
    ? await db.bulkItem.groupBy({
        by: ["jobId", "status", "kind"],
        where: { jobId: { in: jobIds } },
        _count: { _all: true },
      })
    : [];
  const out = new Map<string, { counts: Record<string, number>; kinds: Record<string, number> }>();
  for (const r of rows) {
    const e = out.get(r.jobId) ?? { counts: {}, kinds: {} };
    e.counts[r.status] = (e.counts[r.status] ?? 0) + r._count._all;
    e.kinds[r.kind] = (e.kinds[r.kind] ?? 0) + r._count._all;
    out.set(r.jobId, e);
  }
  return out;
}

/** A job of this workspace with its progress and, paged by position, its items; 404 for any other. */
export async function getJobOrThrow(
  db: Db,
  workspaceId: string,
  id: string,
  page: { cursor?: number; limit?: number; status?: string; kind?: string } = {},
): Promise<JobView> {
  const job = await db.bulkJob.findFirst({ where: { id, workspaceId, expiresAt: { gt: new Date() } } });
  if (!job)
    throw new AppError("NOT_FOUND", "No such job in this workspace (it may have expired with the history window).");
  const agg = (await countsFor(db, [job.id])).get(job.id) ?? { counts: {}, kinds: {} };
  const view = jobView(job, agg.counts, agg.kinds);
  const limit = page.limit ?? 100;
  if (limit > 0) {
    const items = await db.bulkItem.findMany({
      where: {
        jobId: job.id,
        position: { gt: page.cursor ?? 0 },
        ...(page.status ? { status: page.status } : {}),
        ...(page.kind ? { kind: page.kind } : {}),
      },
      orderBy: { position: "asc" },
      take: limit + 1,
    });
    view.items = items.slice(0, limit).map((i) => itemView(i, true));
    view.next_cursor = items.length > limit ? items[limit - 1]!.position : null;
  }
  return view;
}

export async function listJobs(
  db: Db,
  workspaceId: string,
  page: { cursor?: string; limit?: number } = {},
): Promise<{ items: JobView[]; next_cursor: string | null }> {
  const limit = page.limit ?? 20;
  await refuseUnknownCursor(page.cursor, (id) =>
    db.bulkJob.findFirst({ where: { id, workspaceId }, select: { id: true } }),
  );
  const rows = await db.bulkJob.findMany({
    where: { workspaceId, expiresAt: { gt: new Date() }, ...(page.cursor ? { id: { lt: page.cursor } } : {}) },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
  const shown = rows.slice(0, limit);
  const agg = await countsFor(
    db,
    shown.map((r) => r.id),
  );
  return {
    items: shown.map((r) => {
      const a = agg.get(r.id) ?? { counts: {}, kinds: {} };
      return jobView(r, a.counts, a.kinds);
    }),
    next_cursor: rows.length > limit ? shown[shown.length - 1]!.id : null,
  };
}

/**
 * Cancels a running job: items not yet started are never run and their units go back to the workspace in one
 * ledger row with the reason; items already running finish and count. Cancelling a finished job changes nothing.
 */
export async function cancelJobOrThrow(
  db: Db,
  a: { workspaceId: string; id: string; requestId: string; principal: Principal },
): Promise<JobView> {
  const job = await db.bulkJob.findFirst({
    where: { id: a.id, workspaceId: a.workspaceId, expiresAt: { gt: new Date() } },
  });
  if (!job)
    throw new AppError("NOT_FOUND", "No such job in this workspace (it may have expired with the history window).");
  if (job.status === "running") {
    await db.$transaction(async (tx) => {
      await tx.$queryRawUnsafe(`SELECT 1 FROM "BulkJob" WHERE "id" = $1 FOR UPDATE`, job.id);
      // Only queued items: a claimed (running) item is finished by its worker and counts.
      const items = await tx.bulkItem.findMany({
        where: { jobId: job.id, status: "queued" },
        select: { id: true, units: true },
      });
      const won = await tx.bulkItem.updateMany({
        where: { id: { in: items.map((i) => i.id) }, status: "queued" },
        data: { status: "cancelled", refunded: true, finishedAt: new Date() },
      });
      if (won.count !== items.length)
        throw new AppError("CONFLICT", "The job changed while it was being cancelled; try again.");
      // Each cancelled item gave back all it had reserved.
      if (items.length)
        await tx.$executeRawUnsafe(
          `UPDATE "BulkItem" SET "unitsRefunded" = "units" WHERE "jobId" = $1 AND "status" = 'cancelled' AND "id" = ANY($2::text[])`,
          job.id,
          items.map((i) => i.id),
        );
      const back = jobCharging().cancelledItemsGivenBack(job.id, items);
      const units = back?.units ?? 0;
      if (back) {
        await refundUnits(tx as unknown as Db, {
          workspaceId: job.workspaceId,
          periodStart: job.periodStart,
          units: back.units,
          requestId: a.requestId,
          endpoint: "bulk.refund",
          reason: back.reason,
          ...payerOf(a.principal),
        });
      }
      const running = await tx.bulkItem.count({ where: { jobId: job.id, status: "running" } });
      await tx.bulkJob.update({
        where: { id: job.id },
        data: {
          status: "cancelled",
          cancelledAt: new Date(),
          unitsRefunded: { increment: units },
          ...(running === 0 ? { finishedAt: new Date() } : {}),
        },
      });
    });
  }
  return getJobOrThrow(db, a.workspaceId, a.id, { limit: 0 });
}

const CSV_COLUMNS = [
  "position",
  "target",
  "kind",
  "status",
  "units",
  "refunded",
  "refunded_units",
  "error_code",
  "error_message",
  "summary",
];

/**
 * A summary field's column name: its own, or `summary_<name>` when a column of the item has that name (a DNS or
 * host status beside the item's `status`), so that no two columns share a header.
 */
function summaryColumn(key: string): string {
  return CSV_COLUMNS.includes(key) ? `summary_${key}` : key;
}

/** One row per item with its summary (formula-safe, as the events CSV). */
export async function jobCsvOrThrow(db: Db, workspaceId: string, id: string): Promise<string> {
  const job = await getJobOrThrow(db, workspaceId, id, { limit: MAX_BULK_TARGETS });
  const keys = [...new Set((job.items ?? []).flatMap((i) => Object.keys(i.summary ?? {})))];
  const lines = [[...CSV_COLUMNS.slice(0, -1), ...keys.map(summaryColumn)].map(csvCell).join(",")];
  for (const i of job.items ?? []) {
    const s = i.summary ?? {};
    lines.push(
      [
        String(i.position),
        i.target,
        i.kind,
        i.status,
        String(i.units),
        i.refunded ? "true" : "false",
        i.refunded_units === null ? "" : String(i.refunded_units),
        i.error?.code ?? "",
        i.error?.message ?? "",
        ...keys.map((k) => (s[k] === null || s[k] === undefined ? "" : String(s[k]))),
      ]
        .map(csvCell)
        .join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}

export { BULK_KINDS };

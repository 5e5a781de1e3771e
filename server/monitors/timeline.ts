// The timeline of a monitor: its runs and its alerts, newest first, paged by cursor (the last id shown; ids sort
// by creation). The monitor is looked up in the caller's workspace first: another workspace's is not found.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { refuseUnknownCursor } from "../pages";
import { toAlertRecord } from "./alerts";
import { findMonitorOrThrow } from "./monitors";
import type { CheckResult } from "./run";

type Page = { id: string; limit: number; cursor?: string };

function paged<T extends { id: string }>(rows: T[], limit: number) {
  const shown = rows.slice(0, limit);
  return { shown, next_cursor: rows.length > limit ? shown[shown.length - 1]!.id : null };
}

export async function listMonitorRuns(db: Db, workspaceId: string, p: Page) {
  const monitor = await findMonitorOrThrow(db, workspaceId, p.id);
  await refuseUnknownCursor(p.cursor, (id) =>
    db.monitorRun.findFirst({ where: { id, monitorId: monitor.id }, select: { id: true } }),
  );
  const rows = await db.monitorRun.findMany({
    where: { monitorId: monitor.id, ...(p.cursor ? { id: { lt: p.cursor } } : {}) },
    orderBy: { id: "desc" },
    take: p.limit + 1,
  });
  const { shown, next_cursor } = paged(rows, p.limit);
  return { items: await runRecords(db, shown), next_cursor };
}

/** One run of a monitor of the workspace (the answer of POST /monitors/{id}/run). */
export async function getMonitorRunOrThrow(db: Db, workspaceId: string, a: { id: string; runId: string }) {
  const monitor = await findMonitorOrThrow(db, workspaceId, a.id);
  const row = await db.monitorRun.findFirst({ where: { id: a.runId, monitorId: monitor.id } });
  if (!row) throw new AppError("NOT_FOUND", `No run ${a.runId} of monitor ${a.id}.`);
  return (await runRecords(db, [row]))[0]!;
}

type RunRow = Awaited<ReturnType<Db["monitorRun"]["findMany"]>>[number];

async function runRecords(db: Db, rows: RunRow[]) {
  const alerts = await db.monitorAlert.findMany({
    where: { runId: { in: rows.map((r) => r.id) } },
    select: { id: true, runId: true },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => ({
    id: r.id,
    monitor_id: r.monitorId,
    status: r.status as "completed" | "skipped",
    units: r.units,
    results: (r.results as Record<string, CheckResult> | null) ?? null,
    reason: r.reason,
    alerts: alerts.filter((a) => a.runId === r.id).map((a) => a.id),
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
  }));
}

export async function listMonitorAlerts(db: Db, workspaceId: string, p: Page) {
  const monitor = await findMonitorOrThrow(db, workspaceId, p.id);
  await refuseUnknownCursor(p.cursor, (id) =>
    db.monitorAlert.findFirst({ where: { id, monitorId: monitor.id }, select: { id: true } }),
  );
  const rows = await db.monitorAlert.findMany({
    where: { monitorId: monitor.id, ...(p.cursor ? { id: { lt: p.cursor } } : {}) },
    orderBy: { id: "desc" },
    take: p.limit + 1,
  });
  const { shown, next_cursor } = paged(rows, p.limit);
  return { items: shown.map(toAlertRecord), next_cursor };
}

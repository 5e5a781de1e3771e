// Scan rows: created as running before the work starts, finished with the result. Reads apply the visibility rule:
// the own workspace sees all of its scans; anyone else sees a public or unlisted scan only by its id.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../ids";
import { scanStaleAfterMs } from "./config";
import type { ScanOutcome } from "./run";
import type { ScanView, Visibility } from "./schemas";

type ScanRow = NonNullable<Awaited<ReturnType<Db["scan"]["findUnique"]>>>;

export async function createRunningScan(
  db: Db,
  a: { workspaceId: string; host: string; url: string; visibility: Visibility },
): Promise<ScanRow> {
  return db.scan.create({
    data: {
      id: newId("scan"),
      workspaceId: a.workspaceId,
      host: a.host,
      url: a.url,
      visibility: a.visibility,
      status: "running",
    },
  });
}

export async function finishScan(db: Db, id: string, outcome: ScanOutcome): Promise<ScanRow> {
  return db.scan.update({
    where: { id },
    data: {
      status: outcome.ok ? "done" : "failed",
      score: outcome.ok ? outcome.score : null,
      grade: outcome.ok ? outcome.grade : null,
      result: outcome as object,
      finishedAt: new Date(),
    },
  });
}

/** The error of a scan left running by an instance that stopped; what the caller reads. */
export const STALE_SCAN_ERROR =
  "The scan did not finish: the server running it stopped (a restart or crash) before saving the result. Nothing was lost but the result; run the scan again.";

/**
 * Marks failed the matching scans still running past scanStaleAfterMs (their instance stopped: no one will finish
 * them). Done on read rather than at start-up so that, with several instances, a scan another live instance is
 * still running is never touched: only age decides. A result saved later still wins (finishScan overwrites).
 */
export async function failStaleScans(
  db: Db,
  where: { id?: string; workspaceId?: string; host?: string },
  now = new Date(),
): Promise<number> {
  const outcome: ScanOutcome = { ok: false, error: STALE_SCAN_ERROR };
  const { count } = await db.scan.updateMany({
    where: { ...where, status: "running", createdAt: { lt: new Date(now.getTime() - scanStaleAfterMs()) } },
    data: { status: "failed", result: outcome as object, finishedAt: now },
  });
  return count;
}

export function toScanView(row: ScanRow): ScanView {
  const r = (row.result ?? null) as ScanOutcome | null;
  const ok = r && r.ok ? r : null;
  return {
    id: row.id,
    url: row.url,
    host: row.host,
    visibility: row.visibility as Visibility,
    status: row.status as ScanView["status"],
    score: row.score,
    grade: row.grade,
    summary: ok ? { penalties: ok.penalties, bonuses: ok.bonuses, bonuses_applied: ok.bonusesApplied } : null,
    tests: ok ? ok.tests : null,
    final_url: ok ? ok.finalUrl : null,
    redirects: ok ? ok.redirects : null,
    tls: ok
      ? {
          connected: ok.tls.connected,
          protocol: ok.tls.protocol,
          valid: ok.tls.valid,
          issuer: ok.tls.issuer,
          days_left: ok.tls.daysLeft,
          error: ok.tls.error,
        }
      : null,
    domain: ok ? ok.domain : null,
    error: r && !r.ok ? r.error : null,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    duration_ms: row.finishedAt ? row.finishedAt.getTime() - row.createdAt.getTime() : null,
  };
}

/** A scan the viewer may read; another workspace's private scan is answered exactly like a missing one. */
export async function getScanOrThrow(db: Db, id: string, viewerWorkspaceId: string | null): Promise<ScanView> {
  await failStaleScans(db, { id });
  const row = await db.scan.findUnique({ where: { id } });
  const visible =
    row && (row.workspaceId === viewerWorkspaceId || row.visibility === "public" || row.visibility === "unlisted");
  if (!row || !visible) throw new AppError("NOT_FOUND", "No scan with this id.");
  return toScanView(row);
}

type Results = Map<string, { result: string; points: number }>;
const resultsOf = (row: ScanRow): Results | null => {
  const r = row.result as ScanOutcome | null;
  return r && r.ok ? new Map(r.tests.map((t) => [t.id, { result: t.result, points: t.points }])) : null;
};

/** The workspace's scans of a host, newest first, each with what changed since the finished scan before it. */
export async function listHostScans(db: Db, workspaceId: string, host: string, limit = 50) {
  await failStaleScans(db, { workspaceId, host });
  const rows = await db.scan.findMany({
    where: { workspaceId, host },
    orderBy: { createdAt: "desc" },
    take: limit + 1,
  });
  const scans = rows.slice(0, limit).map((row, i) => {
    const prev = rows.slice(i + 1).find((x) => x.status === "done");
    const now = resultsOf(row);
    const before = prev ? resultsOf(prev) : null;
    const changes =
      now && before
        ? [...now]
            .filter(([id, t]) => before.get(id)?.result !== t.result)
            .map(([id, t]) => ({
              test: id,
              from: before.get(id)?.result ?? null,
              to: t.result,
              points_delta: t.points - (before.get(id)?.points ?? 0),
            }))
        : [];
    return {
      id: row.id,
      visibility: row.visibility as Visibility,
      status: row.status as "running" | "done" | "failed",
      score: row.score,
      grade: row.grade,
      created_at: row.createdAt.toISOString(),
      score_delta: row.score !== null && prev?.score != null ? row.score - prev.score : null,
      changes,
    };
  });
  return { host, scans };
}

/**
 * The hosts a workspace has scanned, the most recently scanned first, each with its latest scan and how many scans
 * it has; `before` (the `scanned_at` of the last host of a page, the API's cursor) continues after it.
 */
export async function listScannedHosts(db: Db, workspaceId: string, opts: { limit: number; before?: Date }) {
  await failStaleScans(db, { workspaceId });
  const groups = await db.scan.groupBy({
    by: ["host"],
    where: { workspaceId },
    _max: { createdAt: true },
    _count: { _all: true },
    ...(opts.before ? { having: { createdAt: { _max: { lt: opts.before } } } } : {}),
    orderBy: [{ _max: { createdAt: "desc" } }, { host: "asc" }],
    take: opts.limit + 1,
  });
  const page = groups.slice(0, opts.limit);
  const latest = page.length
    ? await db.scan.findMany({
        where: { workspaceId, OR: page.map((g) => ({ host: g.host, createdAt: g._max.createdAt! })) },
        orderBy: { createdAt: "desc" },
      })
    : [];
  const hosts = page.map((g) => {
    const row = latest.find((r) => r.host === g.host)!;
    return {
      host: g.host,
      scans: g._count._all,
      latest: {
        id: row.id,
        status: row.status as "running" | "done" | "failed",
        grade: row.grade,
        score: row.score,
        visibility: row.visibility as Visibility,
      },
      scanned_at: row.createdAt.toISOString(),
    };
  });
  const last = hosts.at(-1);
  return { hosts, next_cursor: groups.length > opts.limit && last ? last.scanned_at : null };
}

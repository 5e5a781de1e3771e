// Saved fraud reports of a workspace. Each carries the expiry captured from the workspace's lookup history window
// when it was saved (spec: Saved fraud report); expired reports are hidden at once and deleted later by the purge.
// Legacy reports without an expiry stay available.
import type { Db } from "../db/client";
import { newestFirstAfter, placeOf } from "../pages";
import { sortableId } from "../ids";
import { reportsPurgeAfterDays } from "./config";
import type { SavedReportView, SaveReportInput } from "./schemas";

const DAY_MS = 86_400_000;

// The stored body wraps the content so the request id travels with it; `v` tells it from legacy bodies.
type StoredBody = { v: 1; report: Record<string, unknown>; requestId: string | null };

type Row = { id: string; title: string; body: unknown; createdAt: Date; expiresAt: Date | null };

function isStoredBody(b: unknown): b is StoredBody {
  return !!b && typeof b === "object" && (b as StoredBody).v === 1 && typeof (b as StoredBody).report === "object";
}

function toView(r: Row): SavedReportView {
  const body = r.body;
  const stored = isStoredBody(body) ? body : null;
  const legacy =
    body && typeof body === "object" && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : { value: body ?? null };
  return {
    id: r.id,
    title: r.title,
    report: stored ? stored.report : legacy,
    request_id: stored ? stored.requestId : null,
    created_at: r.createdAt.toISOString(),
    expires_at: r.expiresAt ? r.expiresAt.toISOString() : null,
  };
}

export async function saveReport(
  db: Db,
  a: { workspaceId: string; userId: string | null; historyDays: number; input: SaveReportInput; now?: Date },
): Promise<SavedReportView> {
  const now = a.now ?? new Date();
  const body: StoredBody = { v: 1, report: a.input.report, requestId: a.input.request_id ?? null };
  const row = await db.savedReport.create({
    data: {
      id: sortableId("rpt"),
      workspaceId: a.workspaceId,
      createdBy: a.userId,
      title: a.input.title,
      body: body as object,
      createdAt: now,
      // The window is captured now: a later plan change neither shortens nor extends this report's life.
      expiresAt: a.historyDays > 0 ? new Date(now.getTime() + a.historyDays * DAY_MS) : null,
    },
  });
  return toView(row);
}

/** Reports of one workspace that are still available, newest first, with keyset pagination on (createdAt, id). */
export async function listReports(
  db: Db,
  a: { workspaceId: string; limit: number; cursor?: string | null; now?: Date },
): Promise<{ items: SavedReportView[]; nextCursor: string | null }> {
  const now = a.now ?? new Date();
  // A cursor from another workspace is unknown, so it reveals nothing about that workspace.
  const after = await placeOf(
    a.cursor,
    (id) =>
      db.savedReport.findFirst({ where: { id, workspaceId: a.workspaceId }, select: { id: true, createdAt: true } }),
    "nextCursor",
  );
  const rows = await db.savedReport.findMany({
    where: {
      workspaceId: a.workspaceId,
      AND: [{ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }, after ? newestFirstAfter(after) : {}],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: a.limit + 1,
  });
  const page = rows.slice(0, a.limit);
  return { items: page.map(toView), nextCursor: rows.length > a.limit ? page[page.length - 1].id : null };
}

/**
 * Deletes reports whose expiry passed more than `graceDays` ago (default SERVICE_REPORTS_PURGE_AFTER_DAYS), in all
 * workspaces. Legacy reports without an expiry are never deleted. Returns how many were removed.
 */
export async function deleteExpiredReports(
  db: Db,
  now: Date = new Date(),
  graceDays: number = reportsPurgeAfterDays(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - graceDays * DAY_MS);
  const { count } = await db.savedReport.deleteMany({ where: { expiresAt: { lt: cutoff } } });
  return count;
}

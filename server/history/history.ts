// Lookup history keeps a safe summary of each lookup (never the raw payload) with the expiry captured from the
// workspace's history window at the time of the lookup. Free workspaces keep no history.
import type { Db } from "../db/client";
import { newId } from "../ids";

export interface LookupHistoryEntry {
  id: string;
  requestId: string;
  endpoint: string;
  target: string;
  summary: Record<string, unknown>;
  created_at: string;
  expires_at: string;
}

export async function recordLookupHistory(
  db: Db,
  a: { workspaceId: string; requestId: string; endpoint: string; target: string; summary: Record<string, unknown>; historyDays: number; now?: Date },
): Promise<void> {
  const now = a.now ?? new Date();
  await db.lookupHistory.create({
    data: {
      id: newId("lkh"),
      workspaceId: a.workspaceId,
      requestId: a.requestId,
      endpoint: a.endpoint,
      target: a.target.slice(0, 512),
      summary: a.summary as object,
      createdAt: now,
      expiresAt: new Date(now.getTime() + a.historyDays * 86_400_000),
    },
  });
}

export async function listLookupHistory(
  db: Db,
  a: { workspaceId: string; limit: number; cursor?: string | null; now?: Date },
): Promise<{ items: LookupHistoryEntry[]; nextCursor: string | null }> {
  const now = a.now ?? new Date();
  const rows = await db.lookupHistory.findMany({
    where: { workspaceId: a.workspaceId, expiresAt: { gt: now } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: a.limit + 1,
    ...(a.cursor ? { cursor: { id: a.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, a.limit);
  return {
    items: page.map((r) => ({
      id: r.id,
      requestId: r.requestId,
      endpoint: r.endpoint,
      target: r.target,
      summary: r.summary as Record<string, unknown>,
      created_at: r.createdAt.toISOString(),
      expires_at: r.expiresAt.toISOString(),
    })),
    nextCursor: rows.length > a.limit ? page[page.length - 1].id : null,
  };
}

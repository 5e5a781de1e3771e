// Lookup history keeps a safe summary of each lookup (never the raw payload) with the expiry captured from the
// workspace's history window at the time of the lookup. Free workspaces keep no history. Every charged request is
// an entry with the units it was charged and its outcome (status code), failed ones included, so a month's
// entries add up to the units used (server/api/trpc.ts writes them, in one place of the procedure ladder).
import { flushBeforeClose, hotQuery, type Db } from "../db/client";
import { newestFirstAfter, placeOf } from "../pages";
import { sortableId } from "../ids";
import { noteStoreOutage } from "../operate/outage";
import { logger } from "../operate/log";

export interface LookupHistoryEntry {
  id: string;
  requestId: string;
  endpoint: string;
  target: string;
  summary: Record<string, unknown>;
  /** Units charged; null for entries written before costs were kept. */
  units: number | null;
  /** Status code of the answer (200, 202, or the error's); null for entries written before outcomes were kept. */
  status: number | null;
  /** Error code of a failed answer, else null. */
  code: string | null;
  created_at: string;
  expires_at: string;
}

type HistoryRow = {
  id: string;
  workspaceId: string;
  requestId: string;
  endpoint: string;
  target: string;
  summary: object;
  units: number;
  status: number;
  code: string | null;
  createdAt: Date;
  expiresAt: Date;
};

// History rows are written in small batches, off the request's critical path: one multi-row insert per
// FLUSH_MS instead of one commit per lookup. Reads of this process flush first, so they see their own writes.
const FLUSH_MS = 20;

const INSERT_HISTORY_SQL = `
INSERT INTO "LookupHistory" ("id", "workspaceId", "requestId", "endpoint", "target", "summary", "units", "status", "code",
       "createdAt", "expiresAt")
SELECT r."id", r."workspaceId", r."requestId", r."endpoint", r."target", r."summary", r."units", r."status", r."code",
       r."createdAt", r."expiresAt"
  FROM jsonb_to_recordset($1::jsonb) AS r("id" text, "workspaceId" text, "requestId" text, "endpoint" text, "target" text,
       "summary" jsonb, "units" integer, "status" integer, "code" text, "createdAt" timestamp(3), "expiresAt" timestamp(3))`;
const MAX_BATCH = 200;
let pending: { db: Db; row: HistoryRow }[] = [];
let timer: NodeJS.Timeout | null = null;
let inFlight: Promise<void> = Promise.resolve();

export function recordLookupHistory(
  db: Db,
  a: {
    workspaceId: string;
    requestId: string;
    endpoint: string;
    target: string;
    summary: Record<string, unknown>;
    units: number;
    /** Status code of the answer; default 200. */
    status?: number;
    code?: string | null;
    historyDays: number;
    now?: Date;
  },
): void {
  const now = a.now ?? new Date();
  pending.push({
    db,
    row: {
      id: sortableId("lkh"),
      workspaceId: a.workspaceId,
      requestId: a.requestId,
      endpoint: a.endpoint,
      target: a.target.slice(0, 512),
      summary: a.summary as object,
      units: a.units,
      status: a.status ?? 200,
      code: a.code ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + a.historyDays * 86_400_000),
    },
  });
  if (pending.length >= MAX_BATCH) void flushLookupHistory();
  else timer ??= setTimeout(() => void flushLookupHistory(), FLUSH_MS);
}

/** Writes every queued history row; resolves when they are stored. */
export function flushLookupHistory(): Promise<void> {
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  const batch = pending;
  pending = [];
  const previous = inFlight;
  inFlight = (async () => {
    await previous;
    const byDb = new Map<Db, HistoryRow[]>();
    for (const { db, row } of batch) {
      const rows = byDb.get(db);
      if (rows) rows.push(row);
      else byDb.set(db, [row]);
    }
    for (const [db, rows] of byDb) {
      // One statement for the batch, off Prisma's query pipeline (server/db/client.ts hotQuery).
      await hotQuery(db, "service_insert_history", INSERT_HISTORY_SQL, [JSON.stringify(rows)]).catch((err) => {
        // An unreachable database is reported once per interval (server/db/outage.ts), not per flush.
        if (!noteStoreOutage(err, "lookup history write"))
          logger().error({ err, component: "history" }, "lookup history write failed");
      });
    }
  })();
  return inFlight;
}
flushBeforeClose(flushLookupHistory);

export async function listLookupHistory(
  db: Db,
  a: {
    workspaceId: string;
    limit: number;
    cursor?: string | null;
    endpoint?: string;
    since?: Date;
    until?: Date;
    now?: Date;
  },
): Promise<{ items: LookupHistoryEntry[]; nextCursor: string | null }> {
  await flushLookupHistory();
  const now = a.now ?? new Date();
  const created =
    a.since || a.until
      ? { createdAt: { ...(a.since ? { gte: a.since } : {}), ...(a.until ? { lt: a.until } : {}) } }
      : {};
  const after = await placeOf(a.cursor, (id) =>
    db.lookupHistory.findFirst({ where: { id, workspaceId: a.workspaceId }, select: { id: true, createdAt: true } }),
  );
  const rows = await db.lookupHistory.findMany({
    // An endpoint filter is the endpoint's name or a family: "ip" matches ip.lookup, ip.geo, ip.rdap, ...
    where: {
      workspaceId: a.workspaceId,
      expiresAt: { gt: now },
      ...created,
      ...(a.endpoint ? { OR: [{ endpoint: a.endpoint }, { endpoint: { startsWith: `${a.endpoint}.` } }] } : {}),
      ...(after ? { AND: [newestFirstAfter(after)] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: a.limit + 1,
  });
  const page = rows.slice(0, a.limit);
  return {
    items: page.map((r) => ({
      id: r.id,
      requestId: r.requestId,
      endpoint: r.endpoint,
      target: r.target,
      summary: r.summary as Record<string, unknown>,
      units: r.units,
      status: r.status,
      code: r.code,
      created_at: r.createdAt.toISOString(),
      expires_at: r.expiresAt.toISOString(),
    })),
    nextCursor: rows.length > a.limit ? page[page.length - 1].id : null,
  };
}

/**
 * The history entries of requests whose units were all given back after they were recorded (the lookups of a monitor
 * run whose monitor was deleted while it ran: server/monitors/run.ts): 0 units, and what they carried named in their
 * summary as `refunded_units` with `reason`, as a request that gives back at once is recorded. So the month's entries
 * still add up to the units used. Queued rows are written first, so the entries are found.
 */
export async function giveBackHistory(
  db: Db,
  a: { workspaceId: string; requestIds: string[]; reason: string },
): Promise<void> {
  if (a.requestIds.length === 0) return;
  await flushLookupHistory();
  await db.$executeRawUnsafe(
    `UPDATE "LookupHistory"
        SET "summary" = "summary" || jsonb_build_object(
              'refunded_units', coalesce(("summary"->>'refunded_units')::int, 0) + "units", 'refund_reason', $3::text),
            "units" = 0
      WHERE "workspaceId" = $1 AND "requestId" = ANY($2::text[]) AND "units" > 0`,
    a.workspaceId,
    a.requestIds,
    a.reason.slice(0, 500),
  );
}

/**
 * The history entry of a request whose answer never reached the client: its units become 0 and its status says so
 * (server/api/rest/undelivered.ts gives the units back). Queued rows are written first, so the entry is found.
 */
export async function markHistoryUndelivered(
  db: Db,
  workspaceId: string,
  requestId: string,
  status: number,
  code: string,
): Promise<void> {
  await flushLookupHistory();
  await db.lookupHistory.updateMany({ where: { workspaceId, requestId }, data: { units: 0, status, code } });
}

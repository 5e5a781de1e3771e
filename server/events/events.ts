// Investigation events: an account-scoped record of assessments, rules, webhooks, link activity and other
// security actions, searchable by request id, email, domain, IP or rule. Every read filters on the workspace.
import { hotQuery, type Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { groupedWriter } from "../db/grouped";
import { sortableId } from "../ids";

export interface EventInput {
  workspaceId: string;
  requestId: string;
  type: string;
  ip?: string | null;
  email?: string | null;
  domain?: string | null;
  rule?: string | null;
  /** For assessments: the account, "user:<user_id>" or "email:<address>" (server/assessment/account.ts). */
  subject?: string | null;
  data: Record<string, unknown>;
}

// Grouped event writes. Concurrent assessments each write one event, and each write is its own commit. While one
// write is in flight on a database, the events that arrive queue behind it and then go as ONE statement, one
// commit: each caller still resolves only once its own row is stored (the next request's velocity sees it). A
// group that fails is retried row by row, so each caller gets its own outcome. Same rows as recordEvent.
const INSERT_EVENTS_SQL = `
INSERT INTO "Event" ("id", "workspaceId", "requestId", "type", "ip", "email", "domain", "rule", "subject", "data", "createdAt")
SELECT r."id", r."workspaceId", r."requestId", r."type", r."ip", r."email", r."domain", r."rule", r."subject", r."data", r."createdAt"
  FROM jsonb_to_recordset($1::jsonb) AS r("id" text, "workspaceId" text, "requestId" text, "type" text, "ip" text, "email" text,
       "domain" text, "rule" text, "subject" text, "data" jsonb, "createdAt" timestamp(3))`;

/** At most this many events in one grouped statement. */
const MAX_EVENT_GROUP = 100;

interface EventWaiter {
  db: Db;
  row: ReturnType<typeof eventRow>;
  resolve(id: string): void;
  reject(err: unknown): void;
}

const insertEvents = (db: Db, rows: EventWaiter["row"][]) =>
  hotQuery(db, "service_insert_events", INSERT_EVENTS_SQL, [JSON.stringify(rows)]);

const eventWrites = groupedWriter<Db, EventWaiter>({
  max: MAX_EVENT_GROUP,
  async group(items) {
    try {
      await insertEvents(
        items[0]!.db,
        items.map((w) => w.row),
      );
    } catch {
      // Nothing of the group was written: row by row, each caller learns its own outcome.
      return false;
    }
    for (const w of items) w.resolve(w.row.id);
    return true;
  },
  one: (w) => insertEvents(w.db, [w.row]).then(() => w.resolve(w.row.id), w.reject),
});

/** The stored row of an event (both ways of writing one store the same). */
function eventRow(e: EventInput) {
  return {
    id: sortableId("evt"),
    workspaceId: e.workspaceId,
    requestId: e.requestId,
    type: e.type,
    ip: e.ip ?? null,
    email: e.email?.toLowerCase() ?? null,
    domain: e.domain?.toLowerCase() ?? null,
    rule: e.rule ?? null,
    subject: e.subject ?? null,
    data: e.data,
    createdAt: new Date(),
  };
}

/**
 * recordEvent for a request of its own (not inside a transaction): grouped with the events other requests write
 * at the same time into one statement. Resolves with the event id once the row is stored.
 */
export function recordEventGrouped(db: Db, e: EventInput): Promise<string> {
  return new Promise((resolve, reject) => eventWrites.add(db, { db, row: eventRow(e), resolve, reject }));
}

/** Writes one event; pass a transaction client to make it part of the change it records. */
export async function recordEvent(db: Pick<Db, "event">, e: EventInput): Promise<string> {
  const row = eventRow(e);
  await db.event.create({ data: { ...row, data: row.data as object } });
  return row.id;
}

/**
 * The `type` filter of GET /events: comma-separated exact types (`assessment,link.created`), and entries ending in
 * `.` match every type with that prefix (`audit.` is the audit trail, `audit.key.` its key changes).
 */
export function typeFilter(type: string | null | undefined): Prisma.EventWhereInput | null {
  const parts = [
    ...new Set(
      (type ?? "")
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  if (parts.length === 0) return null;
  const exact = parts.filter((t) => !t.endsWith("."));
  const prefixes = parts.filter((t) => t.endsWith("."));
  return {
    OR: [...(exact.length ? [{ type: { in: exact } }] : []), ...prefixes.map((p) => ({ type: { startsWith: p } }))],
  };
}

/** Events of one workspace, newest first, optionally matching `query` on any indexed field, the `type` filter and a time range (`since` inclusive, `until` exclusive). */
export async function searchEvents(
  db: Db,
  a: {
    workspaceId: string;
    query?: string | null;
    type?: string | null;
    since?: Date | null;
    until?: Date | null;
    limit: number;
    cursor?: string | null;
  },
) {
  const q = a.query?.trim();
  const types = typeFilter(a.type);
  const created =
    a.since || a.until
      ? { createdAt: { ...(a.since ? { gte: a.since } : {}), ...(a.until ? { lt: a.until } : {}) } }
      : null;
  const rows = await db.event.findMany({
    where: {
      workspaceId: a.workspaceId,
      AND: [
        ...(q
          ? [
              {
                OR: [
                  { requestId: q },
                  { ip: q },
                  { email: q.toLowerCase() },
                  { domain: q.toLowerCase() },
                  { rule: q },
                  { type: q },
                  { actor: q },
                ],
              },
            ]
          : []),
        ...(types ? [types] : []),
        ...(created ? [created] : []),
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: a.limit + 1,
    ...(a.cursor ? { cursor: { id: a.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, a.limit);
  return { items: page, nextCursor: rows.length > a.limit ? page[page.length - 1].id : null };
}

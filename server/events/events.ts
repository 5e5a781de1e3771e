// Investigation events: an account-scoped record of assessments, rules, webhooks, link activity and other
// security actions, searchable by request id, email, domain, IP, rule, and an assessment's user_id, device_id or phone
// number. Every read filters on the workspace.
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { newestFirstAfter, placeOf } from "../pages";
import { sortableId } from "../ids";
import type { EventType } from "./types";

export interface EventInput {
  workspaceId: string;
  requestId: string;
  /** One of server/events/types.ts: a type missing there could not be found with the /events filter. */
  type: EventType;
  ip?: string | null;
  email?: string | null;
  /**
   * The canonical mailbox of `email` (server/email/canonical.ts): what velocity and search key on, so that every
   * spelling of one inbox is one. A caller recording an address gives it (events sit below email in the layers).
   */
  emailNormalized?: string | null;
  domain?: string | null;
  rule?: string | null;
  /** For assessments: the account, "user:<user_id>" or "email:<address>" (server/assessment/account.ts). */
  subject?: string | null;
  /** For assessments: the request's device_id (velocity counts a device's events through this column's index). */
  device?: string | null;
  /** For assessments: what the account's baseline and failure counters read, as columns (prisma/schema.prisma). */
  account?: AccountColumns;
  data: Record<string, unknown>;
}

/** An assessment's columns for the account's baseline and counters (server/assessment/account.ts reads them). */
export interface AccountColumns {
  kind: string;
  failed: boolean;
  country: string | null;
  asn: string | null;
  latitude: number | null;
  longitude: number | null;
  hidesLocation: boolean;
}

/** The stored row of an event (recordEvent and the assessment's write, server/assessment/record.ts, store the same). */
export function eventRow(e: EventInput) {
  return {
    id: sortableId("evt"),
    workspaceId: e.workspaceId,
    requestId: e.requestId,
    type: e.type,
    ip: e.ip ?? null,
    email: e.email?.toLowerCase() ?? null,
    // What velocity and search key on: every spelling of one mailbox (server/email/canonical.ts).
    emailNormalized: e.email ? (e.emailNormalized ?? e.email.toLowerCase()) : null,
    domain: e.domain?.toLowerCase() ?? null,
    rule: e.rule ?? null,
    subject: e.subject ?? null,
    device: e.device ?? null,
    kind: e.account?.kind ?? null,
    failed: e.account?.failed ?? false,
    country: e.account?.country ?? null,
    asn: e.account?.asn ?? null,
    latitude: e.account?.latitude ?? null,
    longitude: e.account?.longitude ?? null,
    hidesLocation: e.account?.hidesLocation ?? false,
    data: e.data,
    createdAt: new Date(),
  };
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

/** Events of one workspace, newest first, optionally matching `query` on any of its columns (never its `data`), the `type` filter and a time range (`since` inclusive, `until` exclusive). */
export async function searchEvents(
  db: Db,
  a: {
    workspaceId: string;
    query?: string | null;
    /** The canonical mailbox of `query` when it is an address (server/email/canonical.ts), so it finds every spelling. */
    queryMailbox?: string | null;
    /**
     * The accounts `query` names (the `subject` column): "user:<query>" for a user_id, and the accounts that gave it
     * when it is a phone number (server/users/linked.ts accountsOfPhone), each read through the column's index.
     */
    querySubjects?: readonly string[];
    /** `query` as an address in the one form events keep (server/net/ip-parse.ts canonicalAddress), when it is one. */
    queryAddress?: string | null;
    /** The ids of the workspace's rules named `query` (events keep the deciding rule's id). */
    queryRules?: readonly string[];
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
  const after = await placeOf(a.cursor, (id) =>
    db.event.findFirst({ where: { id, workspaceId: a.workspaceId }, select: { id: true, createdAt: true } }),
  );
  const rows = await db.event.findMany({
    where: {
      workspaceId: a.workspaceId,
      AND: [
        ...(q
          ? [
              {
                OR: [
                  { requestId: q },
                  // The address as sent and in its one form (a link visit's event keeps X-Forwarded-For's spelling).
                  { ip: a.queryAddress && a.queryAddress !== q ? { in: [q, a.queryAddress] } : q },
                  // An address finds every spelling of its mailbox (a.l.i.c.e+1@gmail.com finds alice@gmail.com).
                  { emailNormalized: a.queryMailbox ?? q.toLowerCase() },
                  { domain: q.toLowerCase() },
                  { rule: a.queryRules?.length ? { in: [q, ...a.queryRules] } : q },
                  // An assessment's device_id, and its account (user_id, or the accounts that gave a phone number).
                  { device: q },
                  ...(a.querySubjects?.length ? [{ subject: { in: [...a.querySubjects] } }] : []),
                  { type: q },
                  { actor: q },
                ],
              },
            ]
          : []),
        ...(types ? [types] : []),
        ...(created ? [created] : []),
        ...(after ? [newestFirstAfter(after)] : []),
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: a.limit + 1,
  });
  const page = rows.slice(0, a.limit);
  return { items: page, nextCursor: rows.length > a.limit ? page[page.length - 1].id : null };
}

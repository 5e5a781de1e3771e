// The review queue: every assessment whose final decision is review or challenge opens a case, in the assessment's
// own write. A person works the queue (oldest first), assigns and resolves: resolving labels the assessment's
// outcome (the labels backtests and learned weights read), may add the account, email, device or address to a
// named list, is an audit event, and queues a `case.resolved` webhook. Another workspace's case is not found.
import type { Actor } from "../audit/audit";
import { actorString, recordAudit } from "../audit/audit";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { refuseUnknownCursor } from "../pages";
import { labelOutcomeOrThrow } from "../assessment/outcomes";
import { prepareItems, writeItems } from "../lists/items";
import { findListOrThrow } from "../lists/lists";
import { normaliseValue, type ListKind } from "../lists/values";
import { CASE_RESOLVED, queueEventDeliveries } from "../webhooks/enqueue";
import { linkedAccountsOf } from "../users/linked";
import type { PaymentLine } from "../users/schemas";
import type { CaseDetail, CaseRecord } from "./schemas";

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
type Row = NonNullable<Awaited<ReturnType<Db["reviewCase"]["findFirst"]>>>;
type Change = { workspaceId: string; requestId: string; actor: Actor };

function record(r: Row, now = Date.now()): CaseRecord {
  const user = r.subject?.startsWith("user:") ? r.subject.slice(5) : null;
  // Cases opened before the email had its own column know it only as the account's key.
  const email = r.email ?? (r.subject?.startsWith("email:") ? r.subject.slice(6) : null);
  return {
    id: r.id,
    request_id: r.requestId,
    decision: r.decision as CaseRecord["decision"],
    score: r.score,
    rule: r.rule,
    user_id: user,
    email,
    ip: r.ip,
    device_id: r.deviceId,
    status: r.status as CaseRecord["status"],
    assignee: r.assignee,
    resolution: (r.resolution ?? null) as CaseRecord["resolution"],
    note: r.note,
    resolved_by: r.resolvedBy,
    resolved_at: r.resolvedAt?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
    age_minutes: Math.max(0, Math.floor((now - r.createdAt.getTime()) / 60_000)),
  };
}

/**
 * The case as a person names it: its account (user id, else email), else its address. A list item's note and the
 * resolution's audit event say "case review of mallory", not a case or request id nobody recognises.
 */
export function caseAccount(r: Row): string {
  const c = record(r);
  const who = c.user_id ?? c.email ?? c.ip ?? "an assessment without an account";
  return who.length > 120 ? `${who.slice(0, 119)}…` : who;
}

export async function openCounts(db: Db, workspaceId: string) {
  const [open, oldest] = await Promise.all([
    db.reviewCase.count({ where: { workspaceId, status: "open" } }),
    db.reviewCase.findFirst({
      where: { workspaceId, status: "open" },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { createdAt: true },
    }),
  ]);
  return {
    open,
    oldest_open_minutes: oldest ? Math.max(0, Math.floor((Date.now() - oldest.createdAt.getTime()) / 60_000)) : null,
  };
}

export async function listCases(
  db: Db,
  workspaceId: string,
  q: {
    status: "open" | "resolved";
    decision?: string;
    rule?: string;
    min_age_minutes?: number;
    limit: number;
    cursor?: string;
  },
) {
  const oldestFirst = q.status === "open";
  await refuseUnknownCursor(q.cursor, (id) =>
    db.reviewCase.findFirst({ where: { id, workspaceId }, select: { id: true } }),
  );
  const rows = await db.reviewCase.findMany({
    where: {
      workspaceId,
      status: q.status,
      ...(q.decision ? { decision: q.decision } : {}),
      ...(q.rule ? { rule: q.rule } : {}),
      ...(q.min_age_minutes !== undefined
        ? { createdAt: { lte: new Date(Date.now() - q.min_age_minutes * 60_000) } }
        : {}),
      // Case ids sort by creation time: the cursor is the last id of the previous page.
      ...(q.cursor ? { id: oldestFirst ? { gt: q.cursor } : { lt: q.cursor } } : {}),
    },
    orderBy: { id: oldestFirst ? "asc" : "desc" },
    take: q.limit + 1,
  });
  const page = rows.slice(0, q.limit);
  return {
    items: page.map((r) => record(r)),
    next_cursor: rows.length > q.limit ? page[page.length - 1]!.id : null,
    counts: await openCounts(db, workspaceId),
  };
}

async function findCaseOrThrow(db: Db | Tx, workspaceId: string, id: string): Promise<Row> {
  const row = await db.reviewCase.findFirst({ where: { workspaceId, id } });
  if (!row) throw new AppError("NOT_FOUND", `No case ${id} in this workspace.`);
  return row;
}

type EventData = {
  event?: string;
  status?: string;
  score?: number;
  risk_level?: string;
  decision?: string;
  signals?: { code: string; weight: number }[];
  rules?: string[];
  facts?: Record<string, unknown>;
  payment?: PaymentLine;
};

export async function getCaseOrThrow(db: Db, workspaceId: string, id: string): Promise<CaseDetail> {
  const row = await findCaseOrThrow(db, workspaceId, id);
  const shares = [
    ...(row.subject ? [{ subject: row.subject }] : []),
    ...(row.ip ? [{ ip: row.ip }] : []),
    ...(row.deviceId ? [{ deviceId: row.deviceId }] : []),
  ];
  const [event, history, related, linked] = await Promise.all([
    db.event.findFirst({ where: { workspaceId, requestId: row.requestId, type: "assessment" } }),
    row.subject
      ? db.event.findMany({
          where: { workspaceId, type: "assessment", subject: row.subject },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: 20,
        })
      : Promise.resolve([]),
    shares.length
      ? db.reviewCase.findMany({
          where: { workspaceId, id: { not: row.id }, OR: shares },
          orderBy: { id: "desc" },
          take: 20,
        })
      : Promise.resolve([]),
    row.subject ? linkedAccountsOf(db, { workspaceId, subject: row.subject }) : Promise.resolve([]),
  ]);
  const data = (event?.data ?? null) as EventData | null;
  return {
    ...record(row),
    assessment:
      event && data
        ? {
            event: data.event ?? "",
            risk_level: data.risk_level ?? "",
            signals: data.signals ?? [],
            rules: data.rules ?? [],
            facts: data.facts ?? {},
            created_at: event.createdAt.toISOString(),
          }
        : null,
    history: history.map((e) => {
      const d = e.data as EventData;
      return {
        request_id: e.requestId,
        event: d.event ?? "",
        status: d.status === "failed" ? ("failed" as const) : ("succeeded" as const),
        score: d.score ?? 0,
        decision: d.decision ?? "",
        country: typeof d.facts?.["ip.country"] === "string" ? (d.facts["ip.country"] as string) : null,
        ip: e.ip,
        payment: d.payment
          ? {
              bin: d.payment.bin,
              last4: d.payment.last4,
              brand_name: d.payment.brand_name,
              amount: d.payment.amount,
              currency: d.payment.currency,
              status: d.payment.status,
              decline_code: d.payment.decline_code,
            }
          : null,
        created_at: e.createdAt.toISOString(),
      };
    }),
    related: related.map((r) => ({
      ...record(r),
      shares: [
        ...(row.subject && r.subject === row.subject ? (["account"] as const) : []),
        ...(row.ip && r.ip === row.ip ? (["ip"] as const) : []),
        ...(row.deviceId && r.deviceId === row.deviceId ? (["device"] as const) : []),
      ],
    })),
    linked_accounts: linked,
  };
}

/** Assigns the case to a member (`me` is the signed-in member) or unassigns it (null). */
export async function assignCaseOrThrow(
  db: Db,
  a: Change & { id: string; assignee: string | null },
): Promise<CaseRecord> {
  const row = await findCaseOrThrow(db, a.workspaceId, a.id);
  let assignee = a.assignee;
  if (assignee === "me") {
    if (a.actor.kind !== "user")
      throw new AppError("INVALID_REQUEST", '"me" needs a signed-in member; an API key assigns by user id.');
    assignee = a.actor.userId;
  }
  if (assignee !== null && assignee.includes("@")) {
    // A member by email address, as members are invited: an API key has no other way to a member's user id.
    const email = assignee.toLowerCase();
    const member = await db.member.findFirst({ where: { workspaceId: a.workspaceId, email } });
    if (!member)
      throw new AppError("INVALID_REQUEST", `assignee: ${email} is not a member of this workspace; invite them first.`);
    if (!member.userId)
      throw new AppError(
        "INVALID_REQUEST",
        `assignee: ${email} is invited but has not signed in yet; a case can be assigned once they have.`,
      );
    assignee = member.userId;
  } else if (assignee !== null) {
    const member = await db.member.findFirst({ where: { workspaceId: a.workspaceId, userId: assignee } });
    if (!member)
      throw new AppError(
        "INVALID_REQUEST",
        `assignee: ${assignee} is not the user id of a member of this workspace (send a member's user id or email address).`,
      );
  }
  const updated = await db.reviewCase.update({ where: { id: row.id }, data: { assignee } });
  return record(updated);
}

/** The value of the case that a resolution adds to a list, checked against the list's kind before anything is written. */
function listValueOrThrow(row: Row, source: "user" | "email" | "device" | "ip", kind: ListKind): string {
  const want: Record<typeof source, ListKind[]> = {
    user: ["user"],
    email: ["email", "email_domain"],
    device: ["device"],
    ip: ["ip"],
  };
  const named: Record<typeof source, string> = {
    user: "a user id",
    email: "an email address",
    device: "a device id",
    ip: "an IP address",
  };
  if (!want[source].includes(kind))
    throw new AppError(
      "INVALID_REQUEST",
      `add_to_list: ${named[source]} cannot go into a list of kind ${kind} (it goes into a list of kind ${want[source].join(" or ")}).`,
    );
  const c = record(row);
  const raw = { user: c.user_id, email: c.email, device: c.device_id, ip: c.ip }[source];
  if (!raw) throw new AppError("INVALID_REQUEST", `This case has no ${source === "user" ? "user_id" : source} to add.`);
  const value = kind === "email_domain" ? raw.slice(raw.lastIndexOf("@") + 1) : raw;
  const n = normaliseValue(kind, value);
  if (!n.ok) throw new AppError("INVALID_REQUEST", `The case's ${source} ${n.reason}.`);
  return n.value;
}

export async function resolveCaseOrThrow(
  db: Db,
  a: Change & {
    id: string;
    resolution: "fraud" | "legitimate";
    note?: string;
    add_to_list?: { list_id: string; value: "user" | "email" | "device" | "ip"; expires_at?: Date };
  },
): Promise<CaseRecord> {
  const row = await findCaseOrThrow(db, a.workspaceId, a.id);
  if (row.status !== "open") throw new AppError("CONFLICT", `Case ${row.id} is already resolved (${row.resolution}).`);
  // Everything that can refuse is checked before anything is written.
  const listed = a.add_to_list
    ? await (async () => {
        const list = await findListOrThrow(db, a.workspaceId, a.add_to_list!.list_id);
        const value = listValueOrThrow(row, a.add_to_list!.value, list.kind as ListKind);
        const item = {
          value,
          note: `From case review of ${caseAccount(row)}: ${a.resolution}`,
          ...(a.add_to_list?.expires_at ? { expires_at: a.add_to_list.expires_at } : {}),
        };
        return { list, items: prepareItems(list, { items: [item] }) };
      })()
    : null;
  const now = new Date();
  const by = actorString(a.actor);
  const resolved = await db.$transaction(async (tx) => {
    // Only an open case moves: a concurrent resolution of the same case finds nothing to update.
    const moved = await tx.reviewCase.updateMany({
      where: { id: row.id, status: "open" },
      data: { status: "resolved", resolution: a.resolution, note: a.note ?? null, resolvedBy: by, resolvedAt: now },
    });
    if (moved.count === 0) throw new AppError("CONFLICT", `Case ${row.id} is already resolved.`);
    const after = await tx.reviewCase.findFirstOrThrow({ where: { id: row.id } });
    await recordAudit(tx, {
      workspaceId: a.workspaceId,
      requestId: a.requestId,
      type: "audit.case.resolved",
      actor: a.actor,
      target: { kind: "case", id: row.id, label: caseAccount(row) },
      before: { status: "open" },
      after: { status: "resolved", resolution: a.resolution, note: a.note ?? null },
    });
    // The outcome label of the assessment: what backtests and learned weights read.
    await labelOutcomeOrThrow(tx, {
      workspaceId: a.workspaceId,
      labelRequestId: a.requestId,
      requestId: row.requestId,
      outcome: a.resolution,
      note: a.note ?? null,
      actor: by,
    }).catch((err) => {
      // The assessment's event was purged by retention: the case is resolved all the same.
      if (!(err instanceof AppError && err.appCode === "NOT_FOUND")) throw err;
    });
    await queueEventDeliveries(tx, {
      workspaceId: a.workspaceId,
      type: CASE_RESOLVED,
      requestId: a.requestId,
      data: record(after),
    });
    // The list's item with the resolution, or neither.
    if (listed) await writeItems(tx, a, listed.list.id, listed.items);
    return after;
  });
  return record(resolved);
}

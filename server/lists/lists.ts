// Named lists of a workspace: create, read, rename, delete, and which rules use a list. Every query filters on
// the workspace (another workspace's list is not found); every change is an audit event (audit.list.*) written in
// the same transaction and moves the list's `version`, which tells /assess its in-process index is stale. A list
// a rule names in in_list() cannot be deleted or renamed while that rule exists.
import { recordAudit, type Actor } from "../audit/audit";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { sortableId } from "../ids";
import { refuseUnknownCursor } from "../pages";
import { listNamesIn } from "../rules/expression";
import type { ListKind } from "./values";

export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
export type Change = { workspaceId: string; requestId: string; actor: Actor };

export interface ListRecord {
  id: string;
  name: string;
  kind: ListKind;
  description: string | null;
  item_count: number;
  /** The rules whose expression names this list. */
  used_by: { id: string; name: string }[];
  created_at: string;
  updated_at: string;
}

type Row = { id: string; name: string; kind: string; description: string | null; createdAt: Date; updatedAt: Date };

/** Rules of the workspace naming each list, by list name. */
async function usersOf(db: Db | Tx, workspaceId: string): Promise<Map<string, { id: string; name: string }[]>> {
  const rules = await db.rule.findMany({
    where: { workspaceId, expression: { contains: "in_list" } },
    select: { id: true, name: true, expression: true },
    orderBy: { createdAt: "asc" },
  });
  const out = new Map<string, { id: string; name: string }[]>();
  for (const r of rules) {
    for (const name of listNamesIn(r.expression ?? "")) {
      if (!out.has(name)) out.set(name, []);
      out.get(name)!.push({ id: r.id, name: r.name });
    }
  }
  return out;
}

async function records(db: Db | Tx, workspaceId: string, rows: Row[]): Promise<ListRecord[]> {
  if (rows.length === 0) return [];
  const [counts, users] = await Promise.all([
    db.namedListItem.groupBy({ by: ["listId"], where: { listId: { in: rows.map((r) => r.id) } }, _count: true }),
    usersOf(db, workspaceId),
  ]);
  const count = new Map(counts.map((c) => [c.listId, c._count]));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    kind: r.kind as ListKind,
    description: r.description,
    item_count: count.get(r.id) ?? 0,
    used_by: users.get(r.name) ?? [],
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

/** Lists by name; `cursor` is the previous page's `next_cursor` (the last name shown). */
export async function listLists(
  db: Db,
  workspaceId: string,
  page: { limit: number; cursor?: string },
): Promise<{ items: ListRecord[]; next_cursor: string | null }> {
  // A cursor is the name of a list of this workspace: one that names none (made up, another workspace's, renamed or
  // deleted since) is 400 as on every list (server/pages.ts), not a page from wherever the made-up name sorts.
  await refuseUnknownCursor(page.cursor, (name) =>
    db.namedList.findFirst({ where: { workspaceId, name }, select: { id: true } }),
  );
  const rows = await db.namedList.findMany({
    where: { workspaceId, ...(page.cursor ? { name: { gt: page.cursor } } : {}) },
    orderBy: { name: "asc" },
    take: page.limit + 1,
  });
  const shown = rows.slice(0, page.limit);
  return {
    items: await records(db, workspaceId, shown),
    next_cursor: rows.length > page.limit ? shown[shown.length - 1]!.name : null,
  };
}

export async function findListOrThrow(db: Db | Tx, workspaceId: string, id: string): Promise<Row> {
  const row = await db.namedList.findFirst({ where: { id, workspaceId } });
  if (!row) throw new AppError("NOT_FOUND", `No list ${id} in this workspace.`);
  return row;
}

export async function getListOrThrow(db: Db, workspaceId: string, id: string): Promise<ListRecord> {
  return (await records(db, workspaceId, [await findListOrThrow(db, workspaceId, id)]))[0]!;
}

const auditFields = (r: Row) => ({ name: r.name, kind: r.kind, description: r.description });

export function auditList(
  tx: Tx,
  a: Change,
  type: Parameters<typeof recordAudit>[1]["type"],
  row: Row,
  x: {
    before?: Record<string, unknown> | null;
    after?: Record<string, unknown> | null;
  },
) {
  return recordAudit(tx, {
    workspaceId: a.workspaceId,
    requestId: a.requestId,
    type,
    actor: a.actor,
    target: { kind: "list", id: row.id, label: row.name },
    before: x.before ?? null,
    after: x.after ?? null,
  });
}

const duplicate = (name: string) => new AppError("CONFLICT", `This workspace already has a list named "${name}".`);
const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === "P2002";

export async function createList(
  db: Db,
  a: Change & { list: { name: string; kind: ListKind; description?: string | null } },
): Promise<ListRecord> {
  try {
    const row = await db.$transaction(async (tx) => {
      if (await tx.namedList.findFirst({ where: { workspaceId: a.workspaceId, name: a.list.name } }))
        throw duplicate(a.list.name);
      const row = await tx.namedList.create({
        data: {
          id: sortableId("list"),
          workspaceId: a.workspaceId,
          name: a.list.name,
          kind: a.list.kind,
          description: a.list.description ?? null,
        },
      });
      await auditList(tx, a, "audit.list.created", row, { after: auditFields(row) });
      return row;
    });
    return (await records(db, a.workspaceId, [row]))[0]!;
  } catch (err) {
    throw isUniqueViolation(err) ? duplicate(a.list.name) : err;
  }
}

function inUse(name: string, rules: { name: string }[], doing: string): AppError {
  return new AppError(
    "CONFLICT",
    `The list "${name}" is used by ${rules.length === 1 ? "the rule" : "the rules"} ${rules.map((r) => `"${r.name}"`).join(", ")}; change or delete ${rules.length === 1 ? "it" : "them"} before you ${doing} the list.`,
  );
}

/** Locks the list row for the rest of the transaction, so a rule naming it cannot be saved meanwhile. */
/**
 * Locks the workspace's list and then reads it (404 when it is not, or no longer, there). Locking before reading
 * matters on PostgreSQL: a change that read the row first and then waited for a concurrent deletion or rename would
 * go on with what it read (a delete of a row already gone was a 500, a rename to the name it already had a 409).
 */
export async function lockListOrThrow(tx: Tx, workspaceId: string, id: string): Promise<Row> {
  await tx.$queryRawUnsafe(
    `SELECT "id" FROM "NamedList" WHERE "id" = $1 AND "workspaceId" = $2 FOR UPDATE`,
    id,
    workspaceId,
  );
  return findListOrThrow(tx, workspaceId, id);
}

export async function updateListOrThrow(
  db: Db,
  a: Change & { id: string; changes: { name?: string; description?: string | null } },
): Promise<ListRecord> {
  try {
    const row = await db.$transaction(async (tx) => {
      const before = await lockListOrThrow(tx, a.workspaceId, a.id);
      const renamed = a.changes.name !== undefined && a.changes.name !== before.name;
      if (renamed) {
        const rules = (await usersOf(tx, a.workspaceId)).get(before.name) ?? [];
        if (rules.length) throw inUse(before.name, rules, "rename");
        if (await tx.namedList.findFirst({ where: { workspaceId: a.workspaceId, name: a.changes.name } }))
          throw duplicate(a.changes.name!);
      }
      const after = await tx.namedList.update({
        where: { id: before.id },
        data: { ...a.changes, version: { increment: 1 } },
      });
      await auditList(tx, a, "audit.list.updated", after, { before: auditFields(before), after: auditFields(after) });
      return after;
    });
    return (await records(db, a.workspaceId, [row]))[0]!;
  } catch (err) {
    throw isUniqueViolation(err) ? duplicate(a.changes.name ?? "") : err;
  }
}

export async function deleteListOrThrow(db: Db, a: Change & { id: string }): Promise<{ id: string; deleted: true }> {
  await db.$transaction(async (tx) => {
    const before = await lockListOrThrow(tx, a.workspaceId, a.id);
    const rules = (await usersOf(tx, a.workspaceId)).get(before.name) ?? [];
    if (rules.length) throw inUse(before.name, rules, "delete");
    const items = await tx.namedListItem.deleteMany({ where: { listId: before.id } });
    await tx.namedList.delete({ where: { id: before.id } });
    await auditList(tx, a, "audit.list.deleted", before, { before: { ...auditFields(before), items: items.count } });
  });
  return { id: a.id, deleted: true };
}

/**
 * For a rule being saved in `tx`: every list its expression names exists in the workspace (400 otherwise); the
 * lists are locked until the rule is written, so a concurrent delete cannot remove one in between.
 */
export async function assertListsExist(db: Db | Tx, workspaceId: string, source: string | null | undefined) {
  const names = listNamesIn(source ?? "");
  if (names.length === 0) return;
  const rows = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT "name" FROM "NamedList" WHERE "workspaceId" = $1 AND "name" = ANY($2::text[]) FOR UPDATE`,
    workspaceId,
    names,
  );
  const known = new Set(rows.map((r) => r.name));
  const missing = names.filter((n) => !known.has(n));
  if (missing.length)
    throw new AppError(
      "INVALID_REQUEST",
      `The expression names ${missing.length === 1 ? "a list" : "lists"} this workspace does not have: ${missing.map((n) => `"${n}"`).join(", ")}. Create ${missing.length === 1 ? "it" : "them"} first (POST /v1/lists).`,
    );
}

// The items of a named list: added in batches of up to 10,000 (JSON `items` or a `csv` text), each normalised by
// the list's kind; one bad item refuses the whole batch with a 400 naming it, and nothing is written. Adding a
// value already listed replaces its note and expiry. An item past its `expires_at` stops matching at once (the
// lookup checks it) and is deleted by the retention purge.
import { parse as parseCsvText } from "csv-parse/sync";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../ids";
import { refuseUnknownCursor } from "../pages";
import { parseTimestamp, pastExpiryProblem } from "../timestamps";
import { auditList, findListOrThrow, lockListOrThrow, type Change, type Tx } from "./lists";
import { normaliseValue, type ListKind } from "./values";

export const MAX_ITEMS_PER_CALL = 10_000;
export const MAX_NOTE_LENGTH = 500;

export interface ItemInput {
  value: string | number;
  expires_at?: Date | null;
  note?: string | null;
}

export interface ItemRecord {
  id: string;
  value: string;
  note: string | null;
  expires_at: string | null;
  /** True once expires_at has passed: the item no longer matches and will be purged. */
  expired: boolean;
  created_at: string;
}

/**
 * The largest body POST /lists/{id}/items reads: room for the documented 10,000-item import with every row at its
 * longest (a 256-character value, an expiry and a 500-character note made of quotes, each doubled in CSV): about
 * 1,300 bytes a row as a text/csv body or as JSON `items`, and 2,300 as the JSON `csv` field (JSON escapes the
 * doubled quotes again). A row of 3-byte characters at the same lengths (about 2,300 bytes) fits as well.
 */
export const MAX_ITEMS_BODY_BYTES = MAX_ITEMS_PER_CALL * 2_400;

type CsvRow = { item: ItemInput; line: number };

/** Why csv-parse refused the text, in words a person can act on. */
function csvProblem(err: unknown): string {
  const e = err as { code?: string; lines?: number };
  const at = typeof e.lines === "number" ? ` (CSV line ${e.lines})` : "";
  if (e.code === "CSV_QUOTE_NOT_CLOSED")
    return 'The CSV ends inside a quoted value: the last quote opened is never closed. Inside a quoted value write a quote twice ("").';
  if (e.code === "CSV_INVALID_CLOSING_QUOTE" || e.code === "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE")
    return `The CSV has text after a closing quote${at}. Quote the whole value and write a quote inside it twice ("").`;
  return `The CSV could not be read${at}; write one item a line: value,expires_at,note.`;
}

const CSV_COLUMNS = ["value", "expires_at", "note"] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number];

/**
 * The columns a first line whose first cell is `value` names: every cell a column's name (any case, each once,
 * trailing empty cells left out), followed by the columns it leaves out in their usual order, so a row as wide as the
 * usual three still reads. Null when the line names anything else: it is then skipped as a header of the usual
 * columns, as it always was (`Value,Expires,Note` from another tool, or an empty last cell).
 */
function headerColumns(record: string[]): CsvColumn[] | null {
  const cells = [...record];
  while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
  const names = cells.map((c) => c.toLowerCase());
  if (!names.every((n, i) => (CSV_COLUMNS as readonly string[]).includes(n) && names.indexOf(n) === i)) return null;
  return [...(names as CsvColumn[]), ...CSV_COLUMNS.filter((c) => !names.includes(c))];
}

/**
 * Reads `value,expires_at,note` records (RFC 4180 through csv-parse: quoted values may hold commas, doubled quotes
 * and line breaks; a first record whose value is `value` is a header: when it names only columns, they say which
 * column is which, so `value,note` or `value,note,expires_at` are read as they say (headerColumns); blank lines are
 * skipped). Each item carries the line it starts on, which errors name.
 */
export function parseCsv(text: string): CsvRow[] | { error: string } {
  // One line break, so a value's line number is the count of breaks before it (csv-parse's own count adds one for
  // every CRLF inside a quoted value).
  const normalised = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  let records: { record: string[]; raw: string }[];
  // Items are counted as they are read, and reading stops at the one past the limit: a 24 MB body of short rows is
  // over a million of them, which would all be read (seconds of the event loop) only to be refused.
  let items = 0;
  let seenOne = false;
  const tooMany = new Error("too many CSV items");
  try {
    records = parseCsvText(normalised, {
      raw: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
      on_record: (read) => {
        const { record } = read as unknown as { record: string[] }; // { record, raw } here too, with `raw: true`
        if (record.every((c) => c === "")) return read;
        // The first record with a cell is a header when its value is `value` (as the loop below reads it).
        const isFirst = !seenOne;
        seenOne = true;
        if (isFirst && /^value$/i.test(record[0]!)) return read;
        if (++items > MAX_ITEMS_PER_CALL) throw tooMany;
        return read;
      },
    }) as unknown as { record: string[]; raw: string }[]; // `raw: true` makes each record { record, raw }
  } catch (err) {
    if (err === tooMany) return { error: `At most ${MAX_ITEMS_PER_CALL} items per call; this one has more.` };
    return { error: csvProblem(err) };
  }
  const out: CsvRow[] = [];
  let breaksBefore = 0;
  let first = true;
  // Which column holds what: value,expires_at,note unless a header line names them otherwise.
  let columns: readonly CsvColumn[] = CSV_COLUMNS;
  for (const { record, raw } of records) {
    // The raw text starts with the blank lines skipped before the record, and ends with its line break.
    const line = 1 + breaksBefore + (/^\s*/.exec(raw)![0].match(/\n/g)?.length ?? 0);
    breaksBefore += raw.match(/\n/g)?.length ?? 0;
    if (record.every((c) => c === "")) continue;
    const header = first && /^value$/i.test(record[0]!);
    first = false;
    if (header) {
      columns = headerColumns(record) ?? CSV_COLUMNS;
      continue;
    }
    if (record.length > columns.length)
      return { error: `CSV line ${line} has ${record.length} columns; write ${columns.join(",")}.` };
    const cell = (c: CsvColumn) => (columns.includes(c) ? record[columns.indexOf(c)] : undefined);
    const [value, expires, note] = [cell("value"), cell("expires_at"), cell("note")];
    let expiresAt: Date | null = null;
    if (expires) {
      const at = parseTimestamp(expires);
      const problem = typeof at === "string" ? at : pastExpiryProblem(at);
      if (problem) return { error: `CSV line ${line}, expires_at "${expires.slice(0, 40)}": ${problem}.` };
      expiresAt = at as Date;
    }
    out.push({ item: { value: value!, expires_at: expiresAt, note: note || null }, line });
  }
  return out;
}

type List = Awaited<ReturnType<typeof findListOrThrow>>;

/** A batch checked and normalised for its list, ready to write. */
export interface PreparedItems {
  received: number;
  rows: { value: string; note: string | null; expiresAt: Date | null }[];
}

/** Checks a batch against its list's kind and limits; one bad item refuses the whole batch (400 naming it). */
export function prepareItems(list: List, a: { items?: ItemInput[]; csv?: string }): PreparedItems {
  let batch: { item: ItemInput; where: string }[];
  if (a.csv !== undefined) {
    const parsed = parseCsv(a.csv);
    if ("error" in parsed) throw new AppError("INVALID_REQUEST", parsed.error);
    batch = parsed.map((p) => ({ item: p.item, where: `CSV line ${p.line}` }));
  } else batch = (a.items ?? []).map((item, i) => ({ item, where: `items.${i}` }));
  if (batch.length === 0)
    throw new AppError(
      "INVALID_REQUEST",
      a.csv !== undefined
        ? "csv: holds no item (only a header or empty lines); nothing was added."
        : "items: must have at least 1 item; nothing was added.",
    );
  if (batch.length > MAX_ITEMS_PER_CALL)
    throw new AppError(
      "INVALID_REQUEST",
      `At most ${MAX_ITEMS_PER_CALL} items per call; this one has ${batch.length}.`,
    );
  const byValue = new Map<string, PreparedItems["rows"][number]>();
  for (const { item, where } of batch) {
    const n = normaliseValue(list.kind as ListKind, item.value);
    if (!n.ok)
      throw new AppError(
        "INVALID_REQUEST",
        `${where} ("${String(item.value).slice(0, 80)}") ${n.reason}; nothing was added.`,
      );
    if (item.note && item.note.length > MAX_NOTE_LENGTH)
      throw new AppError(
        "INVALID_REQUEST",
        `${where}: the note is longer than ${MAX_NOTE_LENGTH} characters; nothing was added.`,
      );
    byValue.set(n.value, { value: n.value, note: item.note ?? null, expiresAt: item.expires_at ?? null });
  }
  return { received: batch.length, rows: [...byValue.values()] };
}

/**
 * Writes a prepared batch in the caller's transaction (a case's resolution adds its value with the resolution, or
 * neither): the items, the list's version (which tells /assess its in-process index is stale) and the audit event.
 * A list deleted since it was read is 404 and the transaction writes nothing.
 */
export async function writeItems(
  tx: Tx,
  a: Change,
  listId: string,
  prepared: PreparedItems,
): Promise<{ list_id: string; received: number; added: number; updated: number }> {
  // The version first: it locks the list's row, so a deletion either came before (the read below is 404, nothing
  // written) or waits for this transaction.
  await tx.namedList.updateMany({
    where: { id: listId, workspaceId: a.workspaceId },
    data: { version: { increment: 1 } },
  });
  const list = await findListOrThrow(tx, a.workspaceId, listId);
  const { rows } = prepared;
  let added = 0;
  // One statement per 1,000 items: a bounded parameter list on both stores.
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    const res = await tx.$queryRawUnsafe<{ inserted: boolean }[]>(
      `INSERT INTO "NamedListItem" ("id", "listId", "value", "note", "expiresAt")
       SELECT u.id, $1, u.value, u.note, u.expires::timestamp(3)
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS u(id, value, note, expires)
       ON CONFLICT ("listId", "value") DO UPDATE SET "note" = EXCLUDED."note", "expiresAt" = EXCLUDED."expiresAt"
       RETURNING (xmax = 0) AS inserted`,
      list.id,
      part.map(() => newId("item")),
      part.map((r) => r.value),
      part.map((r) => r.note),
      part.map((r) => (r.expiresAt ? r.expiresAt.toISOString().replace("T", " ").replace("Z", "") : null)),
    );
    added += res.filter((r) => r.inserted).length;
  }
  await auditList(tx, a, "audit.list.items_added", list, {
    after: {
      received: prepared.received,
      added,
      updated: rows.length - added,
      sample: rows.slice(0, 20).map((r) => r.value),
    },
  });
  return { list_id: list.id, received: prepared.received, added, updated: rows.length - added };
}

/** Adds or replaces items; all or nothing. */
export async function addItems(
  db: Db,
  a: Change & { id: string; items?: ItemInput[]; csv?: string },
): Promise<{ list_id: string; received: number; added: number; updated: number }> {
  const prepared = prepareItems(await findListOrThrow(db, a.workspaceId, a.id), a);
  // Ten statements of 1,000 rows can outlast Prisma's default 5 s on a busy server: an import is all or nothing,
  // so it gets the time it needs rather than failing half-way as a 500.
  return db.$transaction((tx) => writeItems(tx, a, a.id, prepared), { timeout: 60_000 });
}

function toItem(
  r: { id: string; value: string; note: string | null; expiresAt: Date | null; createdAt: Date },
  now: number,
): ItemRecord {
  return {
    id: r.id,
    value: r.value,
    note: r.note,
    expires_at: r.expiresAt?.toISOString() ?? null,
    expired: r.expiresAt !== null && r.expiresAt.getTime() <= now,
    created_at: r.createdAt.toISOString(),
  };
}

/** Items by value; `query` keeps those whose value or note contains it; `cursor` is the last value shown. */
export async function listItems(
  db: Db,
  workspaceId: string,
  id: string,
  page: { limit: number; cursor?: string; query?: string },
): Promise<{ items: ItemRecord[]; next_cursor: string | null }> {
  const list = await findListOrThrow(db, workspaceId, id);
  // "contains": the text as it is, so LIKE's wildcards (_ and %) and its escape character match themselves.
  const q = page.query?.trim().replace(/[\\%_]/g, "\\$&");
  // A cursor is the value of an item of this list (deleted or purged since, or made up: 400, as on every list).
  await refuseUnknownCursor(page.cursor, (value) =>
    db.namedListItem.findFirst({ where: { listId: list.id, value }, select: { id: true } }),
  );
  const rows = await db.namedListItem.findMany({
    where: {
      listId: list.id,
      ...(page.cursor ? { value: { gt: page.cursor } } : {}),
      ...(q
        ? { OR: [{ value: { contains: q, mode: "insensitive" } }, { note: { contains: q, mode: "insensitive" } }] }
        : {}),
    },
    orderBy: { value: "asc" },
    take: page.limit + 1,
  });
  const shown = rows.slice(0, page.limit);
  const now = Date.now();
  return {
    items: shown.map((r) => toItem(r, now)),
    next_cursor: rows.length > page.limit ? shown[shown.length - 1]!.value : null,
  };
}

export async function deleteItemOrThrow(
  db: Db,
  a: Change & { id: string; itemId: string },
): Promise<{ id: string; deleted: true }> {
  await db.$transaction(async (tx) => {
    // The list locked first: a concurrent removal of the same item (or deletion of the list) has committed by the
    // time the item is read, so it is 404 here rather than a failed delete.
    const list = await lockListOrThrow(tx, a.workspaceId, a.id);
    const item = await tx.namedListItem.findFirst({ where: { id: a.itemId, listId: list.id } });
    if (!item) throw new AppError("NOT_FOUND", `No item ${a.itemId} in this list.`);
    await tx.namedListItem.delete({ where: { id: item.id } });
    const after = await tx.namedList.update({ where: { id: list.id }, data: { version: { increment: 1 } } });
    await auditList(tx, a, "audit.list.item_removed", after, { before: { value: item.value, note: item.note } });
  });
  return { id: a.itemId, deleted: true };
}

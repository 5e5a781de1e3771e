// Pages of a list shown newest first (createdAt, then id, both descending), whose cursor is the last id of the page
// before. The cursor's row is read first, in the caller's workspace: a cursor that names none is refused
// (server/errors.ts unknownCursorError), and the next page is the rows strictly after that row's place. The place
// holds while the row is still stored, whether or not the list still shows it (a history entry past its window
// until the purge deletes it), and no row is skipped: an OFFSET after Prisma's own `cursor` counted from a row the
// filtered list did not hold, and dropped the first one after it.
import { z } from "zod";
import { unknownCursorError } from "./errors";

/** Where a page ended: its last row's creation time and id. */
export interface PagePosition {
  createdAt: Date;
  id: string;
}

/** The rows after `p` in newest-first order, as a Prisma `where` condition. */
export function newestFirstAfter(p: PagePosition) {
  return { OR: [{ createdAt: { lt: p.createdAt } }, { createdAt: p.createdAt, id: { lt: p.id } }] };
}

/**
 * The place a page's `cursor` names, read by `find` (the row of that id in the caller's workspace and list), or null
 * without a cursor; a cursor that names no row is 400 (unknownCursorError, naming `field`, the list's next-page field).
 */
export async function placeOf(
  cursor: string | null | undefined,
  find: (id: string) => Promise<PagePosition | null>,
  field = "next_cursor",
): Promise<PagePosition | null> {
  if (!cursor) return null;
  const place = await find(cursor);
  if (!place) throw unknownCursorError(field);
  return place;
}

/**
 * For a list paged by id alone (ids that sort by creation: monitors, their runs and alerts, review cases, bulk jobs):
 * a cursor that names no row of the list in the caller's workspace (`exists` reads it there) is 400
 * (unknownCursorError, naming `field`), rather than an empty page or a page from wherever the made-up id sorts.
 */
export async function refuseUnknownCursor(
  cursor: string | null | undefined,
  exists: (id: string) => Promise<unknown>,
  field = "next_cursor",
): Promise<void> {
  if (cursor && !(await exists(cursor))) throw unknownCursorError(field);
}

/**
 * A list's `cursor` parameter, `of` saying what a cursor the list issued looks like. An empty one (`?cursor=`, what a
 * client sends when it fills a first page's absent `next_cursor` into its URL template) is the first page on every
 * list, as no cursor is; /cases, /scans/hosts and /users/{user_id} answered it 400 while the other lists paged on.
 */
export function pageCursor<T extends z.ZodType<unknown, string>>(of: T) {
  return z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v))
    .pipe(of.optional());
}

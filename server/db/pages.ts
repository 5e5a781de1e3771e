// Pages of a list shown newest first (createdAt, then id, both descending), whose cursor is the last id of the page
// before. The cursor's row is read first, in the caller's workspace: a cursor that names none is refused
// (server/errors.ts unknownCursorError), and the next page is the rows strictly after that row's place. The place
// holds while the row is still stored, whether or not the list still shows it (a history entry past its window
// until the purge deletes it), and no row is skipped: an OFFSET after Prisma's own `cursor` counted from a row the
// filtered list did not hold, and dropped the first one after it.

/** Where a page ended: its last row's creation time and id. */
export interface PagePosition {
  createdAt: Date;
  id: string;
}

/** The rows after `p` in newest-first order, as a Prisma `where` condition. */
export function newestFirstAfter(p: PagePosition) {
  return { OR: [{ createdAt: { lt: p.createdAt } }, { createdAt: p.createdAt, id: { lt: p.id } }] };
}

// The planner's statistics of a table the hot statements read, kept up as the table grows. PostgreSQL plans a
// named statement once per connection after its fifth run (a generic plan) and keeps that plan until the table's
// statistics change. Made while a new workspace's first events were being written, with no statistics yet, the
// velocity read's plan reached every key through the (workspace, request) index and filtered the workspace's
// whole history, for as long as the connection lived: in the login benchmark, 5 to 10 ms of the database's CPU per
// assessment instead of 0.5. Autovacuum's analyze would have replaced it, but the embedded store has no autovacuum
// and a server may run without it, so the writers ask here: once the table has grown by a tenth since its last
// ANALYZE (and by at least MIN_GROWTH_PAGES), it is analysed again, which also makes every connection plan its
// statements anew. The size is read from the relation's pages (pg_relation_size against pg_class.relpages, which
// ANALYZE sets), so it needs no statistics collector and holds across instances.

/** What this module needs of a database client (Prisma's, or a transaction's). */
export interface StatisticsDb {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** Rows a process writes to a table between two looks at its size. */
export const CHECK_EVERY_ROWS = 200;
/** Growth since the last ANALYZE that makes another: a tenth, as autovacuum's default scale factor, and at least... */
const GROWTH = 0.1;
/** ...this many 8 kB pages (a few dozen assessments), so a small table is not analysed on every look. */
const MIN_GROWTH_PAGES = 8;

/**
 * Analyses `table` when it has grown enough since its last ANALYZE; true when it did. `table` is one of our
 * tables' names, never user input.
 */
export async function refreshStatistics(db: StatisticsDb, table: string): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<{ analysed: number; pages: number }[]>(
    `SELECT c."relpages"::int AS "analysed", (pg_relation_size(c."oid") / current_setting('block_size')::int)::int AS "pages"
       FROM pg_class c WHERE c."oid" = to_regclass($1)`,
    `"${table}"`,
  );
  const row = rows[0];
  if (!row || row.pages - row.analysed < Math.max(MIN_GROWTH_PAGES, row.analysed * GROWTH)) return false;
  await db.$executeRawUnsafe(`ANALYZE "${table}"`);
  return true;
}

const written = new Map<string, number>();
const running = new Set<string>();

/**
 * Counts rows written to `table`; every CHECK_EVERY_ROWS of them, looks at its size (refreshStatistics). Returns the
 * look's promise for the caller to report a failure, or null when there was no look (none due, or one under way).
 */
export function noteRowsWritten(db: StatisticsDb, table: string, rows: number): Promise<boolean> | null {
  const count = (written.get(table) ?? 0) + rows;
  if (count < CHECK_EVERY_ROWS || running.has(table)) {
    written.set(table, count);
    return null;
  }
  written.set(table, 0);
  running.add(table);
  return refreshStatistics(db, table).finally(() => running.delete(table));
}

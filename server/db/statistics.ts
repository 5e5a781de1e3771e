// The planner's statistics of a table the hot statements read, kept up as the table grows. PostgreSQL plans a hot
// statement once per connection (a generic plan: ./client.ts HOT_PLANS) and keeps that plan until the table's
// statistics change. Made while a new workspace's first events were being written, with no statistics yet, the
// velocity read's plan reached every key through the (workspace, request) index and filtered the workspace's
// whole history, for as long as the connection lived: in the login benchmark, 5 to 10 ms of the database's CPU per
// assessment instead of 0.5. Autovacuum's analyze would have replaced it, but the embedded store has no autovacuum
// and a server may run without it, so the writers ask here: once the table has doubled since its last ANALYZE (and
// grown by at least MIN_GROWTH_PAGES), it is analysed again, which also makes every connection plan its statements
// anew. Doubling, not autovacuum's tenth: the plans only need the table's order of magnitude and its keys' spread (the
// planner scales the row counts by the table's current size itself), while each ANALYZE samples up to 30,000 rows
// and makes every connection plan again; at a tenth, a store filling at the benchmark's pace was analysed 27 times in
// 40 s (80 ms of the database's CPU each, and the velocity read planned anew on every connection after each). The
// size is read from the relation's pages (pg_relation_size against pg_class.relpages, which ANALYZE sets), so it
// needs no statistics collector and holds across instances.

/** What this module needs of a database client (Prisma's, or a transaction's). */
export interface StatisticsDb {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** Rows a process writes to a table between two looks at its size. */
export const CHECK_EVERY_ROWS = 200;
/** Growth since the last ANALYZE that makes another: the table's size again, and at least... */
const GROWTH = 1;
/** ...this many 8 kB pages (a few dozen assessments), so a small table is not analysed on every look. */
const MIN_GROWTH_PAGES = 8;

/**
 * Analyses `table` when it has grown enough since its last ANALYZE; true when it did. `table` is one of our
 * tables' names, never user input. Columns named in `skip` are left out: no statement filters, joins or sorts by
 * them, and sampling them is most of the work (the events' `data`, a few kilobytes of compressed JSON per row,
 * decompressed for every sampled row: about a twentieth of the database's CPU under the login benchmark).
 */
export async function refreshStatistics(
  db: StatisticsDb,
  table: string,
  skip: readonly string[] = [],
): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<{ analysed: number; pages: number; columns: string | null }[]>(
    `SELECT c."relpages"::int AS "analysed", (pg_relation_size(c."oid") / current_setting('block_size')::int)::int AS "pages",
            (SELECT string_agg(quote_ident(a."attname"), ', ' ORDER BY a."attnum") FROM pg_attribute a
              WHERE a."attrelid" = c."oid" AND a."attnum" > 0 AND NOT a."attisdropped"
                AND a."attname" <> ALL($2::text[])) AS "columns"
       FROM pg_class c WHERE c."oid" = to_regclass($1)`,
    `"${table}"`,
    [...skip],
  );
  const row = rows[0];
  if (!row || row.pages - row.analysed < Math.max(MIN_GROWTH_PAGES, row.analysed * GROWTH)) return false;
  await db.$executeRawUnsafe(`ANALYZE "${table}"${row.columns && skip.length ? ` (${row.columns})` : ""}`);
  return true;
}

const written = new Map<string, number>();
const running = new Set<string>();

/**
 * Counts rows written to `table`; every CHECK_EVERY_ROWS of them, looks at its size (refreshStatistics). Returns the
 * look's promise for the caller to report a failure, or null when there was no look (none due, or one under way).
 */
export function noteRowsWritten(
  db: StatisticsDb,
  table: string,
  rows: number,
  skip: readonly string[] = [],
): Promise<boolean> | null {
  const count = (written.get(table) ?? 0) + rows;
  if (count < CHECK_EVERY_ROWS || running.has(table)) {
    written.set(table, count);
    return null;
  }
  written.set(table, 0);
  running.add(table);
  return refreshStatistics(db, table, skip).finally(() => running.delete(table));
}

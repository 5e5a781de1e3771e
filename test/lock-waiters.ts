// How many statements of other connections wait on PostgreSQL for a lock that one connection holds, directly or behind
// one another (pg_blocking_pids): tests that hold a row in one connection see their requests queue in the database.

interface RawQuerier {
  $queryRawUnsafe<T>(sql: string): Promise<T>;
}

/** Statements of other connections waiting for a lock that the connection `holder` (a backend pid) holds. */
export async function waitingBehind(db: RawQuerier, holder: number): Promise<number> {
  const rows = await db.$queryRawUnsafe<{ pid: number; blockers: number[] }[]>(
    `SELECT pid, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity WHERE wait_event_type = 'Lock'`,
  );
  const behind = new Set([holder]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows)
      if (!behind.has(r.pid) && r.blockers.some((b) => behind.has(b))) grew = Boolean(behind.add(r.pid));
  }
  return behind.size - 1;
}

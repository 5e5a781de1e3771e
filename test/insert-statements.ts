// Counting the statements that insert into a table while some work runs: a statement-level trigger (a real one, no
// mock) notes each INSERT statement, whatever number of rows it writes; an INSERT .. ON CONFLICT DO UPDATE fires it
// once, whether it inserts or updates. Used to show what grouped writers join into one statement.
import type { Db } from "../server/db/client";

export async function countingInsertStatements<T>(
  db: Db,
  table: string,
  work: () => Promise<T>,
): Promise<{ statements: number; result: T }> {
  await db.$executeRawUnsafe(`CREATE TABLE counted_insert_statements (n int)`);
  await db.$executeRawUnsafe(
    `CREATE OR REPLACE FUNCTION count_insert_statements() RETURNS trigger AS $$ BEGIN INSERT INTO counted_insert_statements VALUES (1); RETURN NULL; END $$ LANGUAGE plpgsql`,
  );
  await db.$executeRawUnsafe(
    `CREATE TRIGGER count_insert_statements AFTER INSERT ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION count_insert_statements()`,
  );
  try {
    const result = await work();
    const [row] = await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM counted_insert_statements`);
    return { statements: Number(row!.n), result };
  } finally {
    await db.$executeRawUnsafe(`DROP TRIGGER count_insert_statements ON "${table}"`);
    await db.$executeRawUnsafe(`DROP TABLE counted_insert_statements`);
  }
}

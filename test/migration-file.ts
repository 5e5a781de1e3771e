// Runs one migration's SQL file against a test's database, for tests of what a migration does to rows stored before
// it: statement by statement (a prepared statement holds one), where server/db/migrate.ts sends the file as one script.
import { readFileSync } from "node:fs";
import path from "node:path";

/** `name` is the migration's folder under prisma/migrations. */
export async function runMigrationFile(
  db: { $executeRawUnsafe(sql: string): Promise<unknown> },
  name: string,
): Promise<void> {
  const sql = readFileSync(path.join(process.cwd(), "prisma/migrations", name, "migration.sql"), "utf8");
  for (const statement of sql.split(/;\s*(?:\n|$)/).filter((t) => t.replace(/--.*$/gm, "").trim()))
    await db.$executeRawUnsafe(statement);
}

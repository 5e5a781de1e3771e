// Events inserted straight into "Event", as some tests seed a workspace's history, carry no velocity counters: the
// assessment's own write keeps those (server/assessment/record.ts). countSeededEvents counts them as the counters'
// migration counted the events stored before it, by running its backfill statements.
import type { Db } from "../../server/db/client";
import { listMigrations } from "../../server/db/migrate";

/** The SQL of the migration whose folder name ends with `suffix`, as start-up reads it (server/db/migrate.ts). */
export function migrationSql(suffix: string): string {
  const migration = listMigrations().find((m) => m.name.endsWith(suffix));
  if (!migration) throw new Error(`the migration *${suffix} is missing`);
  return migration.sql;
}

/** The counters' migrations' backfills (the counters', then the shared-egress pairs'): their INSERT statements. */
function backfillStatements(): string[] {
  return [migrationSql("_velocity_counters"), migrationSql("_velocity_egress_pairs")]
    .join(";\n")
    .replace(/^--.*$/gm, "")
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s.startsWith("INSERT INTO"));
}

/**
 * Recounts the workspace's velocity counters from its stored assessments, as the migration does: its statements,
 * limited to this workspace (other test files' workspaces in the same database keep what they have).
 */
export async function countSeededEvents(db: Db, workspaceId: string): Promise<void> {
  await db.$executeRawUnsafe(`DELETE FROM "VelocityCount" WHERE "workspaceId" = $1`, workspaceId);
  await db.$executeRawUnsafe(`DELETE FROM "VelocityPair" WHERE "workspaceId" = $1`, workspaceId);
  const assessments = `"type" = 'assessment'`;
  for (const statement of backfillStatements()) {
    if (!statement.includes(assessments)) throw new Error("the backfill no longer reads assessments as expected");
    const scoped = statement.replaceAll(assessments, `${assessments} AND "workspaceId" = $1`);
    await db.$executeRawUnsafe(scoped, workspaceId);
  }
}

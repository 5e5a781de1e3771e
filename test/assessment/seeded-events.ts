// Events inserted straight into "Event", as some tests seed a workspace's history, carry no velocity counters: the
// assessment's own write keeps those (server/assessment/record.ts). countSeededEvents counts them as the counters'
// migration counted the events stored before it, by running its backfill statements.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Db } from "../../server/db/client";

const MIGRATIONS = path.join("prisma", "migrations");

/** The counters' migration's backfill: its INSERT statements. */
export function backfillStatements(): string[] {
  const dir = readdirSync(MIGRATIONS).find((d) => d.endsWith("_velocity_counters"));
  if (!dir) throw new Error("the velocity counters' migration is missing");
  const sql = readFileSync(path.join(MIGRATIONS, dir, "migration.sql"), "utf8").replace(/^--.*$/gm, "");
  return sql
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

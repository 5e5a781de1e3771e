// Applies prisma/migrations/<timestamp>_<name>/migration.sql in order and records them in Prisma's own
// `_prisma_migrations` table with the same checksum (sha256 of the file), so `prisma migrate deploy` agrees
// wherever the CLI has its native engine. Runs at start and from `npm run db:migrate`; needs no network.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { setting } from "../env";

export interface SqlRunner {
  exec(sql: string): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  withLock<T>(fn: () => Promise<T>): Promise<T>;
}

export function migrationsDir(): string {
  const candidates = [path.join(process.cwd(), "prisma", "migrations"), setting("SERVICE_MIGRATIONS_DIR") ?? ""];
  const found = candidates.find((c) => c && existsSync(c));
  if (!found) throw new Error(`prisma/migrations not found from ${process.cwd()}`);
  return found;
}

export function listMigrations(dir = migrationsDir()): { name: string; sql: string; checksum: string }[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export async function applyMigrations(runner: SqlRunner): Promise<string[]> {
  return runner.withLock(async () => {
    await runner.exec(CREATE_TABLE);
    const rows = await runner.query(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Map(rows.map((r) => [String(r.migration_name), String(r.checksum)]));
    const done: string[] = [];
    for (const m of listMigrations()) {
      const prior = applied.get(m.name);
      if (prior) {
        if (prior !== m.checksum) throw new Error(`migration ${m.name} was modified after it was applied`);
        continue;
      }
      const id = randomUUID();
      // Each migration and its record commit together, so a failure leaves nothing half-applied.
      await runner.exec(
        `BEGIN;\n${m.sql}\n;INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count, started_at) VALUES ('${id}', '${m.checksum}', now(), '${m.name.replace(/'/g, "''")}', 1, now());\nCOMMIT;`,
      );
      done.push(m.name);
    }
    return done;
  });
}

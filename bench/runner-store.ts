// The store an in-process bench runner works on, chosen before any server module loads: PostgreSQL in a schema of
// its own when BENCH_DATABASE_URL is set, else the embedded database in a fresh temporary directory. Background
// workers, the scheduler and the demo seed stay off, so only the timed work runs.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export function useBenchStore(name: string): "postgres" | "embedded" {
  process.env.SERVICE_BULK_WORKER = "0";
  process.env.SERVICE_WEBHOOK_WORKER = "0";
  process.env.SERVICE_SCHEDULER = "0";
  process.env.SERVICE_SEED_DEMO = "0";
  const url = process.env.BENCH_DATABASE_URL?.trim();
  if (url) {
    process.env.DATABASE_URL = url;
    process.env.SERVICE_DB_SCHEMA = `bench_${name}_${process.pid}`;
    return "postgres";
  }
  delete process.env.DATABASE_URL;
  process.env.SERVICE_DATA_DIR = mkdtempSync(path.join(os.tmpdir(), `svc-bench-${name}-`));
  return "embedded";
}

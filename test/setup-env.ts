// Every test process gets its own in-memory embedded database unless DATABASE_URL points at PostgreSQL
// (then test/harness.ts gives each file its own schema). Tests never reach the internet: upstreams are
// played by servers the tests start on 127.0.0.1.
// Files of vitest's "shared" project run one after another in the same worker (isolate: false): each starts with
// the schema setting it was given from outside and ends by closing the database it opened, so the next file gets
// a fresh one.
import { afterAll } from "vitest";
import { TEST_SPECIAL_USE_NAMES } from "./fakes/special-use-names";

const g = globalThis as { __testSchemaSetting?: string | null; __serviceDb?: unknown };
if (g.__testSchemaSetting === undefined) g.__testSchemaSetting = process.env.SERVICE_DB_SCHEMA ?? null;
if (g.__testSchemaSetting === null) delete process.env.SERVICE_DB_SCHEMA;
else process.env.SERVICE_DB_SCHEMA = g.__testSchemaSetting;

process.env.SERVICE_DATA_DIR ??= "memory://";
process.env.SERVICE_DNS_SERVERS ??= "127.0.0.1:9";
process.env.SERVICE_SPECIAL_USE_NAMES ??= TEST_SPECIAL_USE_NAMES;

afterAll(async () => {
  if (!g.__serviceDb) return;
  const { closeDb } = await import("../server/db/client");
  await closeDb();
});

// Every test process gets its own in-memory embedded database unless DATABASE_URL points at PostgreSQL
// (then test/harness.ts gives each file its own schema). Tests never reach the internet: upstreams are
// played by servers the tests start on 127.0.0.1.
// Files of vitest's "shared" project run one after another in the same worker (isolate: false): each starts with
// the schema setting it was given from outside and ends by closing the database it opened, so the next file gets
// a fresh one.
import { afterAll } from "vitest";
import { TEST_SPECIAL_USE_NAMES } from "./fakes/special-use-names";

const g = globalThis as {
  __testSchemaSetting?: string | null;
  __testServerWrites?: Record<string, string | undefined>;
  __serviceDb?: unknown;
};
if (g.__testSchemaSetting === undefined) g.__testSchemaSetting = process.env.SERVICE_DB_SCHEMA ?? null;
if (g.__testSchemaSetting === null) delete process.env.SERVICE_DB_SCHEMA;
else process.env.SERVICE_DB_SCHEMA = g.__testSchemaSetting;

// The variables the server itself writes for libraries that read the environment (server/env/source.ts): next-auth's
// URL, taken once from the configured origin. A file of the shared worker that ran with a public URL set (a links
// test) would leave it to every later file, whose dashboard mutations then fail the same-origin check; each file
// starts with them as the worker found them.
const SERVER_WRITES = ["NEXTAUTH_URL", "AUTH_TRUST_HOST", "npm_config_registry"];
g.__testServerWrites ??= Object.fromEntries(SERVER_WRITES.map((k) => [k, process.env[k]]));
for (const [k, v] of Object.entries(g.__testServerWrites)) {
  if (v === undefined) delete process.env[k];
  else process.env[k] = v;
}

process.env.SERVICE_DATA_DIR ??= "memory://";
process.env.SERVICE_DNS_SERVERS ??= "127.0.0.1:9";
process.env.SERVICE_SPECIAL_USE_NAMES ??= TEST_SPECIAL_USE_NAMES;

afterAll(async () => {
  if (!g.__serviceDb) return;
  const { closeDb } = await import("../server/db/client");
  await closeDb();
});

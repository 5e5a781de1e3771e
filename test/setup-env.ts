// Every test process gets its own in-memory embedded database unless DATABASE_URL points at PostgreSQL
// (then each file works in a schema of its own, below). Tests never reach the internet: upstreams are
// played by servers the tests start on 127.0.0.1.
// Files of vitest's "shared" project run one after another in the same worker (isolate: false): each starts with
// the environment it was given from outside and ends by dropping the schema it made and closing the database it
// opened, so the next file gets a fresh one.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll } from "vitest";
import { TEST_SPECIAL_USE_NAMES } from "./fakes/special-use-names";
import { databaseOpen, keepForNextFile, recordOpens, watchFileDatabase } from "./file-database";

const g = globalThis as {
  __testEnvironment?: Record<string, string | undefined>;
  __serviceDb?: unknown;
  __serviceProcessState?: unknown;
  __testSchema?: string;
};

// Every file starts with the environment exactly as the worker found it: a file of the shared worker that points a
// setting at its own fake source (process.env.SERVICE_X = fake.url), or a variable the server writes for libraries
// that read the environment (next-auth's NEXTAUTH_URL, npm_config_registry; server/env/source.ts), leaves nothing to
// the next file. Settings are read at call time (server/env.ts), so restoring the variables restores the settings.
g.__testEnvironment ??= { ...process.env };
for (const k of Object.keys(process.env)) if (!(k in g.__testEnvironment)) delete process.env[k];
Object.assign(process.env, g.__testEnvironment);

// Start-up, readiness and shutdown flags (server/operate/state.ts) belong to a process: every file starts with them as
// a new process would, whatever start-up an earlier file of the worker ran or failed.
delete g.__serviceProcessState;

// On PostgreSQL every file works in a schema of its own (made by the first open, dropped when the file ends), also
// a file that opens the database without test/harness.ts; a schema given from outside is used as it is.
delete g.__testSchema;
if (process.env.DATABASE_URL && !process.env.SERVICE_DB_SCHEMA) {
  g.__testSchema = `t_${process.pid}_${randomBytes(4).toString("hex")}`;
  process.env.SERVICE_DB_SCHEMA = g.__testSchema;
}

process.env.SERVICE_DATA_DIR ??= "memory://";
// Every answer of the suite is checked against its output schema's parse (server/api/output-validation.ts):
// what production sends with the default `off` is then what the suite saw.
process.env.SERVICE_OUTPUT_VALIDATION ??= "strict";
// New embedded databases (each file's, and those of the servers tests start) begin from a kept migrated copy
// (server/db/template.ts) instead of running initdb: about 3 s of CPU less per file.
process.env.SERVICE_DB_TEMPLATE_DIR ??= path.resolve("node_modules/.cache/service-db-template");
process.env.SERVICE_DNS_SERVERS ??= "127.0.0.1:9";
process.env.SERVICE_SPECIAL_USE_NAMES ??= TEST_SPECIAL_USE_NAMES;

// Each file's database (test/file-database.ts): in a shared worker (SERVICE_TEST_KEEP_DB, vitest.config.ts) the
// embedded in-memory one is kept from file to file, emptied, instead of a new one per file; CI's first run lists the
// files that open one, for its PostgreSQL pass.
watchFileDatabase(process.env.SERVICE_TEST_KEEP_DB === "1");
if (process.env.SERVICE_TEST_STORE_RECORD) recordOpens(process.env.SERVICE_TEST_STORE_RECORD);

afterAll(async () => {
  const schema = g.__testSchema;
  delete g.__testSchema;
  if (!databaseOpen()) return;
  // Feed data that a file refreshed from its fake sources (which needs the database) stays in the process's
  // memory, not in the file's schema: forget it, or the next file of the worker answers from the fake lists.
  (await import("../server/feeds/loader")).forgetRefreshedFeeds();
  const { closeDb, getDb } = await import("../server/db/client");
  // The file's schema goes with it, dropped over the connection still open (a file that closed its database
  // itself leaves its schema behind).
  if (schema) await (await getDb()).$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await keepForNextFile();
  await closeDb();
});

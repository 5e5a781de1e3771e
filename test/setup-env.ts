// Every test process gets its own in-memory embedded database unless DATABASE_URL points at PostgreSQL
// (then test/harness.ts gives each file its own schema). Tests never reach the internet: upstreams are
// played by servers the tests start on 127.0.0.1.
// Files of vitest's "shared" project run one after another in the same worker (isolate: false): each starts with
// the schema setting it was given from outside and ends by closing the database it opened, so the next file gets
// a fresh one.
import { afterAll } from "vitest";
import { TEST_SPECIAL_USE_NAMES } from "./fakes/special-use-names";

const g = globalThis as {
  __testEnvironment?: Record<string, string | undefined>;
  __serviceDb?: unknown;
  __serviceProcessState?: unknown;
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

process.env.SERVICE_DATA_DIR ??= "memory://";
process.env.SERVICE_DNS_SERVERS ??= "127.0.0.1:9";
process.env.SERVICE_SPECIAL_USE_NAMES ??= TEST_SPECIAL_USE_NAMES;

afterAll(async () => {
  if (!g.__serviceDb) return;
  const { closeDb } = await import("../server/db/client");
  await closeDb();
});

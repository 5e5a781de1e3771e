// Unit and integration tests. Most files only call our modules with a database of their own (test/harness.ts
// opens one per file and closes it at the file's end), so they share their workers' loaded modules (isolate:
// false): importing the server once per worker instead of once per file took 12 of them from 118 s to 24 s. Their
// embedded in-memory database is kept from one file to the next, emptied (SERVICE_TEST_KEEP_DB, test/file-database.ts):
// a new one per file cost about 0.7 s of CPU each.
// Files that change process-wide state (mocks, spies, fake timers, globals, process listeners, the global HTTP
// dispatcher, a fixed environment) keep a fresh module registry each ("isolated"). Which is which is read from each
// file's text, so new files need no entry here. Setting environment variables is not such a change: settings are read
// at call time and test/setup-env.ts gives every file the environment as its worker found it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

// fixEnvironment(): settings then stop reading the environment, for the rest of the process (state on globalThis).
const GLOBAL_STATE =
  /vi\.(mock|doMock|stub|spyOn|useFakeTimers|resetModules)|globalThis|process\.on\(|setGlobalDispatcher|fixEnvironment\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) return [];
    if (statSync(p).isDirectory()) return testFiles(p);
    return name.endsWith(".test.ts") ? [p] : [];
  });
}

// The same on PostgreSQL: test/harness.ts gives each file a schema of its own and closes the pool at the file's end
// (server/db/client.ts), and test/setup-env.ts resets the schema setting with the rest of the environment, so the
// next file of the worker opens a new pool on its own schema.
const isolated = ["server", "test"]
  .flatMap((d) => testFiles(d))
  .filter((f) => GLOBAL_STATE.test(readFileSync(f, "utf8")))
  .map((f) => f.split(path.sep).join("/"));

const common = {
  environment: "node" as const,
  testTimeout: 60_000,
  hookTimeout: 180_000,
  pool: "forks" as const,
  setupFiles: ["test/setup-env.ts"],
};
const exclude = ["node_modules/**", "e2e/**", ".next/**"];

export default defineConfig({
  test: {
    fileParallelism: true,
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...common,
          name: "shared",
          isolate: false,
          env: { SERVICE_TEST_KEEP_DB: "1" },
          include: ["server/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...exclude, ...isolated],
        },
      },
      { test: { ...common, name: "isolated", isolate: true, include: isolated, exclude } },
    ],
  },
});

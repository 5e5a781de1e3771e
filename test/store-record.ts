// Which test files open the database in their own process, for CI's PostgreSQL pass (.ci/store-tests.mjs): when
// SERVICE_TEST_STORE_RECORD names a file, every test file that opened the store (server/db/client.ts keeps its
// handle in globalThis.__serviceDb) appends its path there when it ends. A file that only imports modules that could
// reach the store, and never opens it, is not listed, so CI does not run it a second time on PostgreSQL: its outcome
// cannot depend on the store.
import { appendFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect } from "vitest";

export function recordStoreOpens(record: string): void {
  const g = globalThis as { __serviceDb?: unknown };
  // The previous file of a shared worker closed its database in its own afterAll (test/setup-env.ts): whatever this
  // file uses, it opens.
  let handle = g.__serviceDb;
  let opened = false;
  Object.defineProperty(g, "__serviceDb", {
    configurable: true,
    enumerable: true,
    get: () => handle,
    set: (value) => {
      if (value) opened = true;
      handle = value;
    },
  });
  afterAll(() => {
    const file = expect.getState().testPath;
    if (opened && file) appendFileSync(record, `${path.relative(process.cwd(), file).split(path.sep).join("/")}\n`);
  });
}

// A hot statement reaches the pool's named-statement driver from any copy of the database module: the production
// build loads server/db/client.ts more than once (a route bundle and the start-up bundle), and a copy that did not
// open the pool must still find its driver instead of silently going through Prisma. Which way a statement went
// shows in how a bigint comes back: the pg driver gives the text "42", PGlite's 42, Prisma 42n.
import { afterAll, expect, it, vi } from "vitest";

afterAll(async () => {
  const { closeDb } = await import("../../server/db/client");
  await closeDb();
});

it("takes the same way from a second copy of the module as from the one that opened the database", async () => {
  const first = await import("../../server/db/client");
  const db = await first.getDb();
  const kind = await first.getDbKind();
  vi.resetModules();
  const second = await import("../../server/db/client");
  expect(second).not.toBe(first);
  const sql = "SELECT 42::bigint AS n";
  const [viaFirst] = await first.hotQuery<{ n: unknown }>(db, "test_hot_bigint", sql, []);
  const [viaSecond] = await second.hotQuery<{ n: unknown }>(db, "test_hot_bigint", sql, []);
  // PostgreSQL: the named statement on the pool gives the text; PGlite's named statement a number; Prisma 42n.
  expect(viaFirst!.n).toEqual(kind === "postgresql" ? "42" : 42);
  expect(viaSecond!.n).toEqual(viaFirst!.n);
});

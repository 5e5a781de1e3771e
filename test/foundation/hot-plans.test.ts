// The hot statements are planned once (server/db/client.ts HOT_PLANS): PostgreSQL would otherwise plan a named
// statement for each run's values whenever the custom plans it made earlier look cheaper than the generic one, which
// after every ANALYZE of a growing table they did, for hundreds of runs. Prisma's statements keep PostgreSQL's
// default. Both stores: on PostgreSQL the hot statements have a pool of their own, on the embedded store (one
// session, shared with Prisma) each run sets and resets the mode in its own transaction.
import { beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { hotQuery } from "../../server/db/client";

// Two connections in all: one for Prisma, one for the hot statements, so every hot statement below is prepared and
// planned on the same connection, whose prepared statements pg_prepared_statements lists.
process.env.SERVICE_DB_POOL_SIZE = "2";
// A connection string with start-up options of its own (as managed hosts give them): node-postgres would let them
// replace the pools' own, the hot statements' plan mode included; both must hold.
if (process.env.DATABASE_URL) {
  const url = new URL(process.env.DATABASE_URL);
  url.searchParams.set("options", "-c statement_timeout=4321");
  process.env.DATABASE_URL = url.toString();
}

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  await app.db.$executeRawUnsafe(`CREATE TABLE "PlanProbe" ("k" text NOT NULL, "n" int NOT NULL)`);
  await app.db.$executeRawUnsafe(`CREATE INDEX "PlanProbe_k_idx" ON "PlanProbe" ("k")`);
  await app.db.$executeRawUnsafe(
    `INSERT INTO "PlanProbe" SELECT 'key-' || (g % 100), g FROM generate_series(1, 1000) g`,
  );
  await app.db.$executeRawUnsafe(`ANALYZE "PlanProbe"`);
});

const MODE_SQL = `SELECT current_setting('plan_cache_mode') AS mode`;
const hotMode = async () => (await hotQuery<{ mode: string }>(app.db, "test_plan_mode", MODE_SQL, []))[0]!.mode;
const prismaMode = async () => (await app.db.$queryRawUnsafe<{ mode: string }[]>(MODE_SQL))[0]!.mode;

it("runs the hot statements with one generic plan and leaves Prisma's with PostgreSQL's default", async () => {
  expect(await hotMode()).toBe("force_generic_plan");
  expect(await prismaMode()).toBe("auto");
  // A hot statement that fails leaves the default behind it too (its transaction, the setting's included, rolls back).
  await expect(hotQuery(app.db, "test_plan_divide", `SELECT 1 / $1::int AS x`, [0])).rejects.toThrow(/division/);
  expect(await prismaMode()).toBe("auto");
  expect(await hotMode()).toBe("force_generic_plan");
  // Inside a transaction a hot statement goes through Prisma, with the default.
  expect(await app.db.$transaction((tx) => hotQuery(tx, "test_plan_mode_tx", MODE_SQL, []))).toEqual([
    { mode: "auto" },
  ]);
});

// PostgreSQL's connection string only: the embedded store has none.
if (process.env.DATABASE_URL)
  it("keeps the connection string's own start-up options on both pools", async () => {
    const TIMEOUT_SQL = `SELECT current_setting('statement_timeout') AS t, current_schema() AS s`;
    const [hot] = await hotQuery<{ t: string; s: string }>(app.db, "test_plan_timeout", TIMEOUT_SQL, []);
    const [main] = await app.db.$queryRawUnsafe<{ t: string; s: string }[]>(TIMEOUT_SQL);
    expect(hot!.t).toBe("4321ms");
    expect(main!.t).toBe("4321ms");
    // The file's own schema (test/setup-env.ts), which the pools' options also carry.
    expect(hot!.s).toBe(process.env.SERVICE_DB_SCHEMA);
    expect(main!.s).toBe(process.env.SERVICE_DB_SCHEMA);
    expect(await hotMode()).toBe("force_generic_plan");
  });

it("keeps a hot statement's one plan when the table grows and its statistics change", async () => {
  const probe = (k: number) =>
    hotQuery(app.db, "test_plan_probe", `SELECT count(*) AS c FROM "PlanProbe" WHERE "k" = $1`, [`key-${k}`]);
  for (let k = 0; k < 6; k++) await probe(k);
  // Ten times the rows and new statistics: PostgreSQL drops the cached plan and, by default, weighs custom plans again.
  await app.db.$executeRawUnsafe(
    `INSERT INTO "PlanProbe" SELECT 'key-' || (g % 100), g FROM generate_series(1, 10000) g`,
  );
  await app.db.$executeRawUnsafe(`ANALYZE "PlanProbe"`);
  for (let k = 0; k < 20; k++) expect(Number((await probe(k))[0]!.c)).toBe(110);
  const [plans] = await hotQuery<{ generic: unknown; custom: unknown }>(
    app.db,
    "test_plan_counts",
    `SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE name = $1`,
    ["test_plan_probe"],
  );
  expect(Number(plans!.custom)).toBe(0);
  expect(Number(plans!.generic)).toBe(26);
});

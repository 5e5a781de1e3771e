// The hot statements' driver (server/db/client.ts hotQuery): named statements on both stores. On PGlite, which has
// one session, a hot statement must never run inside another request's Prisma transaction, an error must leave the
// session ready, and values must go in and come back as they do through Prisma.
import { beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { hotQuery } from "../../server/db/client";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  await app.db.$executeRawUnsafe(`CREATE TABLE "HotProbe" ("n" int NOT NULL, "note" text)`);
});

const count = async () =>
  Number(
    (await hotQuery<{ c: unknown }>(app.db, "test_probe_count", `SELECT count(*) AS c FROM "HotProbe"`, []))[0]!.c,
  );

it("waits for an open transaction instead of running inside it, and keeps its own write when that rolls back", async () => {
  let inside!: () => void;
  const opened = new Promise<void>((r) => (inside = r));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const tx = app.db
    .$transaction(async (t) => {
      await t.$executeRawUnsafe(`INSERT INTO "HotProbe" ("n", "note") VALUES (1, 'rolled back')`);
      inside();
      await held;
      throw new Error("roll back");
    })
    .catch((err: Error) => err.message);
  await opened;
  // Issued while the transaction is open: it must neither see the transaction's row nor be undone with it.
  const write = hotQuery(app.db, "test_probe_insert", `INSERT INTO "HotProbe" ("n", "note") VALUES ($1, $2)`, [
    2,
    "kept",
  ]);
  // Counted once that write is done: on PostgreSQL the two run on other connections than the transaction's, and a
  // count issued alongside the write could run before it commits.
  const seen = write.then(count);
  setTimeout(release, 50);
  expect(await tx).toBe("roll back");
  await write;
  expect(await seen).toBe(1);
  const rows = await app.db.$queryRawUnsafe<{ n: number; note: string }[]>(`SELECT "n", "note" FROM "HotProbe"`);
  expect(rows).toEqual([{ n: 2, note: "kept" }]);
});

it("throws a failing statement's error and leaves the session ready for the next one", async () => {
  // The error keeps PostgreSQL's code, which the outage classification reads (server/db/outage-reason.ts).
  await expect(hotQuery(app.db, "test_probe_divide", `SELECT 1 / $1::int AS x`, [0])).rejects.toMatchObject({
    code: "22012",
    message: expect.stringMatching(/division by zero/),
  });
  await expect(hotQuery(app.db, "test_probe_bad", `SELEC 1`, [])).rejects.toMatchObject({
    code: "42601",
    message: expect.stringMatching(/syntax error/),
  });
  // The same names again: the failing run left its statement usable, the unparsable text was not kept.
  expect(await hotQuery(app.db, "test_probe_divide", `SELECT 1 / $1::int AS x`, [1])).toEqual([{ x: 1 }]);
  await expect(hotQuery(app.db, "test_probe_bad", `SELEC 1`, [])).rejects.toThrow(/syntax error/);
  expect(await count()).toBe(1);
  // A transaction after the errors starts and commits normally.
  await app.db.$transaction(async (t) => {
    await t.$executeRawUnsafe(`INSERT INTO "HotProbe" ("n", "note") VALUES (3, 'committed')`);
  });
  expect(await count()).toBe(2);
});

// The kinds of values the hot statements pass and return. Not compared: int8 and numeric results, which each way
// spells its own way (text, number, bigint, Decimal; callers read them with Number()), and timestamp results, which
// no hot statement returns (see hotQuery).
it("passes arrays, JSON, booleans, nulls, timestamps and numbers as Prisma does, and reads them back alike", async () => {
  const sql = `SELECT $1::text[] AS tags, ($2::jsonb)->>'a' AS a, $3::boolean AS yes, $4::text AS nothing,
      extract(epoch FROM $5::timestamp(3))::float8 AS at, $6::int + 1 AS n, $7::float8 AS lat,
      array_length($1::text[], 1) AS tag_count`;
  const values = [
    ["x", "y,z", 'q"uote'],
    JSON.stringify({ a: "b" }),
    true,
    null,
    "2026-11-26T05:00:00.123Z",
    41,
    -33.87,
  ];
  const [viaDriver] = await hotQuery<Record<string, unknown>>(app.db, "test_probe_values", sql, values);
  const [viaPrisma] = await app.db.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...values);
  expect(viaDriver).toEqual({
    tags: ["x", "y,z", 'q"uote'],
    a: "b",
    yes: true,
    nothing: null,
    at: Date.parse("2026-11-26T05:00:00.123Z") / 1000,
    n: 42,
    lat: -33.87,
    tag_count: 3,
  });
  expect(viaPrisma).toEqual(viaDriver);
});

// The hot statements' driver on PostgreSQL (server/db/pg-named.ts): a named statement's rows are described once in the
// process, and every later run, on any pooled connection, sends no Describe and gets no RowDescription, its rows read
// alike. Seen on the wire: the pool talks to the local PostgreSQL (DATABASE_URL or the one the development and CI
// machines provide) through a relay here that counts each side's messages by their type.
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { forgetDescriptions, pgNamedDriver } from "../../server/db/pg-named";
import type { NamedDriver } from "../../server/db/pglite-named";
import { tcpRelay } from "../fakes/tcp-relay";

const url = new URL(
  process.env.DATABASE_URL ?? process.env.SERVICE_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test",
);
url.searchParams.delete("schema");

/** Messages by type: what the client sent (Parse P, Bind B, Describe D, Execute E, Sync S) and what it got (T...). */
const sent = new Map<string, number>();
const received = new Map<string, number>();
const count = (m: Map<string, number>, tag: string) => m.set(tag, (m.get(tag) ?? 0) + 1);

/** Counts the tagged messages of one direction; the first `untagged` messages (the start-up) are skipped. */
function counter(into: Map<string, number>, untagged: number) {
  let buf = Buffer.alloc(0);
  let skip = untagged;
  return (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (skip > 0) {
        if (buf.length < 4) return;
        const len = buf.readInt32BE(0);
        if (buf.length < len) return;
        buf = buf.subarray(len);
        skip--;
        continue;
      }
      if (buf.length < 5) return;
      const len = buf.readInt32BE(1);
      if (buf.length < 1 + len) return;
      count(into, String.fromCharCode(buf[0]!));
      buf = buf.subarray(1 + len);
    }
  };
}

let relay: Awaited<ReturnType<typeof tcpRelay>>;
let pool: pg.Pool;
let driver: NamedDriver;

beforeAll(async () => {
  relay = await tcpRelay(
    { host: url.hostname, port: Number(url.port || 5432) },
    { fromClient: () => counter(sent, 1), fromServer: () => counter(received, 0) },
  );
  const relayed = new URL(url);
  relayed.host = `127.0.0.1:${relay.port}`;
  pool = new pg.Pool({ connectionString: relayed.toString(), max: 2 });
  driver = pgNamedDriver(pool, pg.Query);
});

afterAll(async () => {
  await pool.end();
  await relay.cut();
});

beforeEach(() => {
  forgetDescriptions();
  sent.clear();
  received.clear();
});

const SQL = `SELECT $1::int AS "n", $2::text AS "t", '2026-11-26 12:00:00+00'::timestamptz AS "at",
  '{"a": [1, 2]}'::jsonb AS "j", ARRAY[1, 2]::int[] AS "arr", NULL::text AS "nothing", 12345678901::bigint AS "big"`;

const expected = (n: number) => ({
  n,
  t: `text ${n}`,
  at: new Date("2026-11-26T12:00:00Z"),
  j: { a: [1, 2] },
  arr: [1, 2],
  nothing: null,
  big: "12345678901",
});

describe("named statements on PostgreSQL", () => {
  it("are described once: later runs send bind, execute and sync, get no description, and read their rows alike", async () => {
    expect(await driver("pg_named_once", SQL, [1, "text 1"])).toEqual([expected(1)]);
    expect(sent.get("D")).toBe(1);
    expect(received.get("T")).toBe(1);
    for (let n = 2; n <= 5; n++) expect(await driver("pg_named_once", SQL, [n, `text ${n}`])).toEqual([expected(n)]);
    // Five runs on one connection: parsed once, described once, bound and executed five times.
    expect(sent.get("P")).toBe(1);
    expect(sent.get("D")).toBe(1);
    expect(sent.get("B")).toBe(5);
    expect(sent.get("E")).toBe(5);
    expect(received.get("T")).toBe(1);
    expect(received.get("D")).toBe(5);
  });

  it("are described once in the process: another connection prepares the statement but does not ask again", async () => {
    await driver("pg_named_pool", SQL, [1, "text 1"]);
    // Two at once take both connections of the pool: the second one parses the statement, described already.
    const both = await Promise.all([
      driver("pg_named_pool", SQL, [2, "text 2"]),
      driver("pg_named_pool", SQL, [3, "text 3"]),
    ]);
    expect(both).toEqual([[expected(2)], [expected(3)]]);
    expect(sent.get("P")).toBe(2);
    expect(sent.get("D")).toBe(1);
    expect(received.get("T")).toBe(1);
  });

  it("forget the description after a run that failed, and the next run asks again", async () => {
    await driver("pg_named_error", SQL, [1, "text 1"]);
    await expect(driver("pg_named_error", SQL, ["not a number", "x"])).rejects.toMatchObject({ code: "22P02" });
    expect(await driver("pg_named_error", SQL, [4, "text 4"])).toEqual([expected(4)]);
    expect(sent.get("D")).toBe(2);
    expect(received.get("T")).toBe(2);
  });

  it("keep a description per text: the same name with another text is described for itself", async () => {
    await driver("pg_named_text", SQL, [1, "text 1"]);
    const other = await driver("pg_named_text_2", `SELECT $1::int + 1 AS "m"`, [41]);
    expect(other).toEqual([{ m: 42 }]);
    expect(await driver("pg_named_text_2", `SELECT $1::int + 1 AS "m"`, [1])).toEqual([{ m: 2 }]);
    expect(sent.get("D")).toBe(2);
  });

  it("fail the run whose connection is cut, with no uncaught error, and the next run opens a new one", async () => {
    const sleeping = driver("pg_named_cut", `SELECT pg_sleep($1::float8) AS "slept"`, [5]);
    // Cut once the run is on the wire (its Bind has gone through the relay).
    for (let i = 0; i < 100 && !sent.get("B"); i++) await new Promise((r) => setTimeout(r, 20));
    await relay.cut();
    await relay.restore();
    await expect(sleeping).rejects.toThrow(/terminated|ECONNRESET|closed/i);
    // The broken client left the pool: the next run connects anew and describes the statement again.
    expect(await driver("pg_named_cut", `SELECT pg_sleep($1::float8) AS "slept"`, [0])).toEqual([{ slept: "" }]);
    expect(sent.get("D")).toBe(2);
  });
});

// The embedded store's named statements (server/db/pglite-named.ts): a statement is parsed and described once, and
// each run after that sends only bind, execute and sync (with the plan mode set around it), reading its rows by the
// columns described at preparation.
import { PGlite } from "@electric-sql/pglite";
import * as pglite from "@electric-sql/pglite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { pgliteNamedDriver } from "../../server/db/pglite-named";

let pg: PGlite;
const sent: Buffer[] = [];

beforeAll(async () => {
  pg = new PGlite();
  await pg.exec(`CREATE TABLE probe (n int, big bigint, at timestamptz, doc jsonb, tags text[], note text)`);
  await pg.exec(`INSERT INTO probe VALUES (1, 9007199254740993, '2026-11-26T10:00:00Z', '{"a":[1,2]}', '{x,y}', NULL)`);
  const run = pg.execProtocolStream.bind(pg);
  pg.execProtocolStream = ((message: Uint8Array, options?: object) => {
    sent.push(Buffer.from(message));
    return run(message, options);
  }) as typeof pg.execProtocolStream;
});
afterAll(() => pg.close());

/** The frontend messages' type letters in one call's bytes (each: a type byte and a length that counts itself). */
function types(buffer: Buffer): string[] {
  const out: string[] = [];
  for (let at = 0; at < buffer.length; at += 1 + buffer.readInt32BE(at + 1)) out.push(String.fromCharCode(buffer[at]!));
  return out;
}

/** The statement each bind of one call's bytes names (after its portal's name; both end with a zero byte). */
function boundStatements(buffer: Buffer): string[] {
  const out: string[] = [];
  for (let at = 0; at < buffer.length; at += 1 + buffer.readInt32BE(at + 1)) {
    if (buffer[at] !== "B".charCodeAt(0)) continue;
    const portalEnd = buffer.indexOf(0, at + 5);
    out.push(buffer.toString("utf8", portalEnd + 1, buffer.indexOf(0, portalEnd + 1)));
  }
  return out;
}

it("describes a statement once, runs it with bind, execute and sync only (in its plan mode), and reads every type alike", async () => {
  const driver = pgliteNamedDriver(pg, pglite);
  const text = `SELECT n, big, at, doc, tags, note FROM probe WHERE n = $1`;
  const first = await driver("probe_read", text, [1]);
  const again = await driver("probe_read", text, [1]);
  const none = await driver("probe_read", text, [2]);
  // Prepared once: the statement, and the two that set and reset its plan mode (server/db/client.ts HOT_PLANS).
  for (const prepare of sent.slice(0, 3)) expect(types(prepare)).toEqual(["P", "D", "S"]);
  // Each run: the mode set, the statement, the mode reset, one sync.
  for (const run of sent.slice(3)) {
    expect(types(run)).toEqual(["B", "E", "B", "E", "B", "E", "S"]);
    expect(boundStatements(run)).toEqual(["service_plans_generic", "probe_read", "service_plans_default"]);
  }
  expect(sent).toHaveLength(6);
  const expected = (await pg.query(text, [1])).rows;
  expect(first).toEqual(expected);
  expect(again).toEqual(expected);
  expect(first[0]).toEqual({
    n: 1,
    big: 9007199254740993n,
    at: new Date("2026-11-26T10:00:00Z"),
    doc: { a: [1, 2] },
    tags: ["x", "y"],
    note: null,
  });
  expect(none).toEqual([]);
});

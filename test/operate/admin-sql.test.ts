// `npm run admin -- sql` takes one statement (README "Operate"). PostgreSQL ran every statement of a query without
// parameters (the driver's simple protocol) while the embedded store refused a second one in its own words; both now
// refuse more than one statement the same way, before anything runs, and still take a semicolon inside a string, a
// quoted name, a comment or a dollar-quoted body, and one at the end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../server/admin/commands";
import { toErrorBody } from "../../server/errors";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.db.$executeRawUnsafe("DROP TABLE IF EXISTS admin_sql_second");
});

const sql = (query: string, ...params: string[]) =>
  runAdminCommand(app.db, ["sql", "--query", query, ...params.flatMap((p) => ["--param", p]), "--json"]);

async function refusal(query: string): Promise<{ status: number; code: string; message: string }> {
  try {
    await sql(query);
  } catch (err) {
    const { status, body } = toErrorBody(err);
    return { status, ...body.error };
  }
  throw new Error(`${query} was not refused`);
}

const tableExists = async () =>
  (
    await app.db.$queryRawUnsafe<{ n: number }[]>(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'admin_sql_second'",
    )
  )[0]!.n > 0;

describe("admin sql", () => {
  it("refuses two statements before running either, in the same words on either store", async () => {
    for (const query of [
      "SELECT 1 AS a; CREATE TABLE admin_sql_second (x int)",
      "SELECT 1 AS a;\n-- then\nCREATE TABLE admin_sql_second (x int);",
      "SELECT ';' AS a; CREATE TABLE admin_sql_second (x int)",
    ]) {
      expect(await refusal(query)).toEqual({
        status: 400,
        code: "INVALID_REQUEST",
        message:
          "sql runs one statement at a time: this query holds more than one (separated by ;). Run each on its own.",
      });
      expect(await tableExists()).toBe(false);
    }
  });

  it("takes one statement, also with semicolons that do not end it", async () => {
    for (const [query, params, rows] of [
      ["SELECT 1 AS a;", [], [{ a: 1 }]],
      ["  SELECT 'x;y' AS a ;  -- done; really\n", [], [{ a: "x;y" }]],
      ['SELECT 1 AS "a;b" /* ; */', [], [{ "a;b": 1 }]],
      ["SELECT $$a;b$$ AS a, $t$c;$$d$t$ AS b", [], [{ a: "a;b", b: "c;$$d" }]],
      ["SELECT E'it\\'s;' AS a", [], [{ a: "it's;" }]],
      ["SELECT $1::text AS a", ["p;q"], [{ a: "p;q" }]],
    ] as const) {
      expect(((await sql(query, ...params)).result as { rows: unknown }).rows, query).toEqual(rows);
    }
  });

  it("says a wrong number of --param is the statement's, in the database's words, not that the database is down", async () => {
    // PostgreSQL refuses a bind with the wrong parameter count as a protocol violation (SQLSTATE 08P01, class 08 like
    // a dropped connection), which was reported as "cannot use the database: database refused the work".
    const { status, body } = await sql("SELECT $1::int AS a", "1", "2").then(
      () => ({ status: 200, body: null }),
      (err: unknown) => toErrorBody(err),
    );
    expect(status).toBe(400);
    expect(body?.error.code).toBe("INVALID_REQUEST");
    expect(body?.error.message).toMatch(/^the database refused the statement: .*2 parameters.* \(SQLSTATE 08P01\)$/);
    expect(await refusal("SELECT $1::int AS a")).toMatchObject({
      status: 400,
      code: "INVALID_REQUEST",
      message: expect.stringMatching(/^the database refused the statement: /),
    });
  });
});

// The embedded database a shared worker keeps from one test file to the next (test/file-database.ts) is emptied to
// the template's state: no row and no column statistic of the previous file is left, the migrations' record stays;
// a database whose schema a file changed, or with a transaction open, is not emptied (so not kept).
import { describe, expect, it } from "vitest";
import { embeddedStore } from "../../server/db/client";
import { emptied, schemaObjects, type Pglite } from "../file-database";
import { createTestApp } from "../harness";

// The kept database is PGlite's: this file runs on the embedded store whatever DATABASE_URL says.
delete process.env.DATABASE_URL;

async function count(pg: Pglite, sql: string): Promise<number> {
  return Number((await pg.query<{ n: number }>(sql)).rows[0]!.n);
}

const STATISTICS = `SELECT count(*)::int AS n FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid
  JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'`;

describe("a kept embedded database", () => {
  it("is emptied of every row and column statistic, and keeps its schema and migrations", async () => {
    const app = await createTestApp();
    const { pg } = (await embeddedStore())!;
    const template = await schemaObjects(pg);
    const migrations = await count(pg, `SELECT count(*)::int AS n FROM "_prisma_migrations"`);
    const ws = await app.seedWorkspace();
    expect((await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey })).status).toBe(200);
    await pg.exec(`ANALYZE "Workspace"; ANALYZE "ApiKey"`);
    expect(await count(pg, STATISTICS)).toBeGreaterThan(0);

    expect(await emptied(pg, template)).toBe(true);
    expect(await app.db.workspace.count()).toBe(0);
    expect(await app.db.apiKey.count()).toBe(0);
    expect(await app.db.usageLedger.count()).toBe(0);
    expect(await count(pg, STATISTICS)).toBe(0);
    expect(await count(pg, `SELECT count(*)::int AS n FROM "_prisma_migrations"`)).toBe(migrations);
    expect(await schemaObjects(pg)).toBe(template);
    // The emptied database serves as a new one.
    const again = await app.seedWorkspace();
    expect((await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: again.apiKey })).status).toBe(200);
  });

  it("is not emptied once a file changed its schema or left a transaction open", async () => {
    await createTestApp();
    const { pg } = (await embeddedStore())!;
    const template = await schemaObjects(pg);
    await pg.exec(`CREATE TABLE "KeepProbe" ("n" int); INSERT INTO "KeepProbe" VALUES (1)`);
    expect(await emptied(pg, template)).toBe(false);
    expect(await count(pg, `SELECT count(*)::int AS n FROM "KeepProbe"`)).toBe(1);
    await pg.exec(`DROP TABLE "KeepProbe"`);

    await pg.exec(`PREPARE keep_probe AS SELECT 1`);
    expect(await emptied(pg, template)).toBe(false);
    await pg.exec(`DEALLOCATE keep_probe`);

    await pg.exec("BEGIN");
    try {
      expect(await emptied(pg, template)).toBe(false);
    } finally {
      await pg.exec("ROLLBACK");
    }
    expect(await emptied(pg, template)).toBe(true);
  });
});

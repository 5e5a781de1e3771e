// How the hot statements commit on PostgreSQL (SERVICE_DB_HOT_COMMIT, server/db/config.ts hotCommitsAsync): by default
// their connections do not wait for a commit's disk flush, the rest of the service's do, and an assessment's write
// that opens a review case (or queues a webhook delivery) waits for its own, then leaves its connection as it was.
// Always on PostgreSQL (DATABASE_URL, or the one the development and CI machines provide), in a schema of its own,
// with one hot connection (a pool of two), so that every hot statement of the file meets the same connection.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeDb, getDb, hotQuery, type Db } from "../../server/db/client";
import { recordAssessment } from "../../server/assessment/record";
import { createWorkspace } from "../../server/workspaces/workspaces";

const ownSchema = !process.env.DATABASE_URL;
process.env.DATABASE_URL ??= process.env.SERVICE_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
if (ownSchema) process.env.SERVICE_DB_SCHEMA = `t_hot_${process.pid}_${randomBytes(4).toString("hex")}`;
process.env.SERVICE_DB_POOL_SIZE = "2";

let db: Db;
let workspaceId: string;

beforeAll(async () => {
  db = await getDb();
  ({ workspaceId } = await createWorkspace(db, { name: "hot commits", plans: ["suite_agency"] }));
});

afterAll(async () => {
  if (ownSchema)
    await (await getDb()).$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${process.env.SERVICE_DB_SCHEMA}" CASCADE`);
});

const hotSetting = async () =>
  (
    await hotQuery<{ v: string }>(
      db,
      "test_hot_commit_setting",
      "SELECT current_setting('synchronous_commit') AS v",
      [],
    )
  )[0]!.v;
const mainSetting = async () =>
  (await db.$queryRawUnsafe<{ v: string }[]>("SELECT current_setting('synchronous_commit') AS v"))[0]!.v;

function assessment(n: number, reviewCase: boolean) {
  return {
    event: { workspaceId, requestId: `req_hot_${n}`, type: "assessment", ip: `203.0.113.${n}`, data: { n } },
    highRisk: null,
    reviewCase: reviewCase
      ? { decision: "review", score: 60, rule: null, subject: null, ip: `203.0.113.${n}`, deviceId: null }
      : null,
  };
}

it("commits the hot statements without waiting for the disk by default, and nothing else", async () => {
  expect(await hotSetting()).toBe("off");
  expect(await mainSetting()).toBe("on");
});

it("waits for the flush of a write that opens a review case, and leaves the connection as it was", async () => {
  const [{ before }] = await db.$queryRawUnsafe<{ before: string }[]>(
    "SELECT pg_current_wal_insert_lsn()::text AS before",
  );
  await recordAssessment(db, assessment(1, true));
  // The write's commit record comes after `before`; a flushed commit means the WAL is on disk past it.
  const [{ flushed }] = await db.$queryRawUnsafe<{ flushed: boolean }[]>(
    "SELECT pg_current_wal_flush_lsn() > $1::pg_lsn AS flushed",
    before,
  );
  expect(flushed).toBe(true);
  expect(await hotSetting()).toBe("off");
  // Both writes are stored, the case with its event; a write without a case commits as the connection does.
  await recordAssessment(db, assessment(2, false));
  expect(await db.event.count({ where: { workspaceId } })).toBe(2);
  expect(await db.reviewCase.count({ where: { workspaceId } })).toBe(1);
  expect(await hotSetting()).toBe("off");
});

it("waits for every flush with SERVICE_DB_HOT_COMMIT=sync", async () => {
  await closeDb();
  process.env.SERVICE_DB_HOT_COMMIT = "sync";
  try {
    db = await getDb();
    expect(await hotSetting()).toBe("on");
    expect(await mainSetting()).toBe("on");
  } finally {
    delete process.env.SERVICE_DB_HOT_COMMIT;
  }
});

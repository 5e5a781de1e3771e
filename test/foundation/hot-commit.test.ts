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

// The local PostgreSQL when the run gives none (the file then runs once, in the embedded run: .ci/store-tests.mjs).
const url =
  process.env.DATABASE_URL ?? process.env.SERVICE_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const ownSchema = !process.env.DATABASE_URL;
process.env.DATABASE_URL = url;
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

function assessment(n: number, reviewCase: boolean, highRisk: unknown = null) {
  return {
    event: { workspaceId, requestId: `req_hot_${n}`, type: "assessment" as const, ip: `203.0.113.${n}`, data: { n } },
    highRisk,
    reviewCase: reviewCase
      ? { decision: "review", score: 60, rule: null, subject: null, ip: `203.0.113.${n}`, deviceId: null }
      : null,
  };
}

it("commits the hot statements without waiting for the disk by default, and nothing else", async () => {
  expect(await hotSetting()).toBe("off");
  expect(await mainSetting()).toBe("on");
});

/**
 * Whether the WAL is on disk past the point it had reached before `write`, once `write` has answered. True whenever the
 * write's commit waited for its flush; a commit that did not wait may still find it true (another session's flush, the
 * WAL writer), so only `true` is asserted.
 */
async function flushedPast(write: () => Promise<void>): Promise<boolean> {
  const [{ before }] = await db.$queryRawUnsafe<{ before: string }[]>(
    "SELECT pg_current_wal_insert_lsn()::text AS before",
  );
  await write();
  const [{ flushed }] = await db.$queryRawUnsafe<{ flushed: boolean }[]>(
    "SELECT pg_current_wal_flush_lsn() > $1::pg_lsn AS flushed",
    before,
  );
  return flushed;
}

it("waits for the flush of a write that opens a review case or queues a delivery, and leaves the connection as it was", async () => {
  expect(await flushedPast(() => recordAssessment(db, assessment(1, true)))).toBe(true);
  expect(await hotSetting()).toBe("off");
  // A high-risk answer with its notification's data (a webhook took high-risk notifications when it was read).
  expect(await flushedPast(() => recordAssessment(db, assessment(2, false, { score: 90 })))).toBe(true);
  expect(await hotSetting()).toBe("off");
  // Every write is stored, the case with its event; a write with neither commits as the connection does.
  await recordAssessment(db, assessment(3, false));
  expect(await db.event.count({ where: { workspaceId } })).toBe(3);
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
    // A write with neither a case nor a delivery waits for its flush too.
    expect(await flushedPast(() => recordAssessment(db, assessment(4, false)))).toBe(true);
    expect(await hotSetting()).toBe("on");
  } finally {
    delete process.env.SERVICE_DB_HOT_COMMIT;
  }
});

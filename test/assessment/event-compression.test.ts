// How an assessment's event stores its answer (prisma/migrations/20261128053000_event_data_lz4): with lz4 where the
// database server has it (PostgreSQL built with it, as Debian's and the official images are), with pglz where it does
// not (the embedded PGlite), and the migration applies on both. Runs on the store of the run: both in CI.
import { beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { recordAssessment } from "../../server/assessment/record";

let app: TestApp;
let workspaceId: string;

beforeAll(async () => {
  app = await createTestApp();
  ({ workspaceId } = await app.seedWorkspace());
});

const one = async <T>(sql: string, ...params: unknown[]) => (await app.db.$queryRawUnsafe<T[]>(sql, ...params))[0]!;

it("compresses the events' answers with lz4 where the server has it, and with pglz where it does not", async () => {
  const { lz4 } = await one<{ lz4: boolean }>(
    `SELECT 'lz4' = ANY(enumvals) AS "lz4" FROM pg_settings WHERE name = 'default_toast_compression'`,
  );
  const { method } = await one<{ method: string }>(
    `SELECT attcompression::text AS "method" FROM pg_attribute WHERE attrelid = '"Event"'::regclass AND attname = 'data'`,
  );
  // 'l' is lz4; '' is the server's default_toast_compression, pglz unless an operator chose otherwise.
  expect(method).toBe(lz4 ? "l" : "");

  // An answer well past the 2 kB at which PostgreSQL compresses a row.
  const signals = Array.from({ length: 40 }, (_, i) => ({
    code: `signal_${i}`,
    reason: `Reason number ${i}: this address was assessed many times in the last hour from several devices.`,
  }));
  await recordAssessment(app.db, {
    event: { workspaceId, requestId: "req_compression", type: "assessment", ip: "203.0.113.9", data: { signals } },
    highRisk: null,
    reviewCase: null,
  });
  const row = await one<{ stored: string | null; data: { signals: unknown[] } }>(
    `SELECT pg_column_compression("data") AS "stored", "data" FROM "Event" WHERE "workspaceId" = $1 AND "requestId" = 'req_compression'`,
    workspaceId,
  );
  expect(row.stored).toBe(lz4 ? "lz4" : "pglz");
  expect(row.data.signals).toEqual(signals);
});

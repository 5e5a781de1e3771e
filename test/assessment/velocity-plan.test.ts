// The velocity statement's cost follows the request's keys' history, not the workspace's traffic, also in the plan
// PostgreSQL keeps for a named statement: one generic plan, made without the parameters' values (the hot statements
// always have one: server/db/client.ts HOT_PLANS). Its user part once compared the subject with an expression over a parameter ('user:' || $6),
// which the generic plan did not treat as a key: it read the workspace's whole week through the time index and
// filtered 3,000 other accounts' rows out, on every assessment, for as long as the process lived. And it reads no
// event's JSON: the baseline's and counters' values are columns of their own.
import { beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { indexOf, literal, scansOf, type PlanNode } from "./plans";
import { countSeededEvents } from "./seeded-events";
import { velocityStatement } from "../../server/assessment/velocity";
import { velocityAlongside } from "../../server/assessment/assess";
import { reservationStatement } from "../../server/quota/reserve";
import type { AssessRequest } from "../../server/assessment/schemas";

let app: TestApp;
let workspaceId: string;
const OTHERS = 3000;

beforeAll(async () => {
  app = await createTestApp();
  ({ workspaceId } = await app.seedWorkspace());
  // Other accounts' assessments of the last week, each with its own address and device, and five of alice's.
  await app.db.$executeRawUnsafe(
    `INSERT INTO "Event" ("id", "workspaceId", "requestId", "type", "ip", "subject", "device", "data", "createdAt")
     SELECT 'ev_other_' || g, $1, 'req_other_' || g, 'assessment', '198.51.' || (g / 250) || '.' || (g % 250),
            'user:other-' || g, 'dev-other-' || g, jsonb_build_object('user_id', 'other-' || g),
            now() - make_interval(secs => g * 60)
     FROM generate_series(1, ${OTHERS}) g`,
    workspaceId,
  );
  await app.db.$executeRawUnsafe(
    `INSERT INTO "Event" ("id", "workspaceId", "requestId", "type", "ip", "subject", "device", "data", "createdAt")
     SELECT 'ev_alice_' || g, $1, 'req_alice_' || g, 'assessment', '203.0.113.7', 'user:alice', 'dev-alice',
            jsonb_build_object('user_id', 'alice'), now() - make_interval(secs => g * 600)
     FROM generate_series(1, 5) g`,
    workspaceId,
  );
  await countSeededEvents(app.db, workspaceId);
});

/** The plan of `sql` prepared and run on one connection with these values, planned as `mode` says (EXPLAIN ANALYZE). */
async function explained(sql: string, params: unknown[], mode: "force_generic_plan" | "force_custom_plan") {
  return app.db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL plan_cache_mode = ${mode}`);
    await tx.$executeRawUnsafe(`PREPARE velocity_plan_test AS ${sql}`);
    const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
      `EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) EXECUTE velocity_plan_test(${params.map(literal).join(", ")})`,
    );
    await tx.$executeRawUnsafe(`DEALLOCATE velocity_plan_test`);
    return rows[0]!["QUERY PLAN"][0].Plan;
  });
}

/**
 * One scan per key part (email, device, user, account) and per window's edge of the address (signal window, 1 h,
 * 24 h, 7 d), each through an index of its key and filtering nothing out, and one of each of the address's counters
 * through its key; returns the rows they read: events, and counters' rows.
 */
function keyRowsRead(plan: PlanNode): { events: number; counters: number } {
  const events = scansOf(plan, "Event");
  expect(events).toHaveLength(8);
  for (const scan of events) {
    expect(scan["Index Name"]).toMatch(/^Event_workspaceId_(ip|emailNormalized|device|subject)_createdAt_idx$/);
    expect(scan["Rows Removed by Filter"] ?? 0).toBe(0);
  }
  // The address's minutes and pairs, and each key of the identity parts: 7 pairs' keys and 3 decline counters'
  // (identity-read.ts).
  const counters = [...scansOf(plan, "VelocityCount"), ...scansOf(plan, "VelocityPair")];
  expect(counters).toHaveLength(12);
  for (const scan of counters) {
    expect(indexOf(scan)).toMatch(/^Velocity(Count|Pair)_pkey$/);
    expect(scan["Rows Removed by Filter"] ?? 0).toBe(0);
  }
  const rows = (scans: PlanNode[]) => scans.reduce((n, s) => n + (s["Actual Rows"] ?? 0) * (s["Actual Loops"] ?? 1), 0);
  return { events: rows(events), counters: rows(counters) };
}

it("reads only the keys' own rows in the generic plan of the named statement", async () => {
  const st = velocityStatement({
    workspaceId,
    ip: "203.0.113.7",
    email: null,
    deviceId: "dev-alice",
    userId: "alice",
    subject: "user:alice",
  });
  // The plan a named statement keeps once PostgreSQL stops planning it per execution.
  const plan = await explained(st.sql, st.params, "force_generic_plan");
  // Nothing of the event's JSON is read: each test of a value in it decompressed a stored assessment's few
  // kilobytes, several times per row of the account's 90 days (the account's columns hold what the counts need).
  for (const scan of scansOf(plan, "Event"))
    expect([...(scan.Output ?? []), scan.Filter ?? ""].join(" ")).not.toMatch(/\bdata\b/);
  // Alice's five events, once for each of the three parts she has a key for (device, user, account); her address by
  // its five minutes (none of her events is at a window's edge) and its two pairs (her account and her device, the
  // shared-egress counts); none of the other accounts' rows.
  expect(keyRowsRead(plan)).toEqual({ events: 15, counters: 7 });
});

it("keeps to the keys' indexes for a workspace the statistics have not seen yet", async () => {
  // The statistics know only the first workspace's events; a second one's arrive after them (its first day, or a
  // busy week that has not yet doubled the table: server/db/statistics.ts). A plan made for the statement's values
  // took the unseen workspace for one row, and read its whole week through the time index for every key part.
  await app.db.$executeRawUnsafe(`ANALYZE "Event"`);
  const { workspaceId: fresh } = await app.seedWorkspace();
  await app.db.$executeRawUnsafe(
    `INSERT INTO "Event" ("id", "workspaceId", "requestId", "type", "ip", "subject", "device", "data", "createdAt")
     SELECT 'ev_new_' || g, $1, 'req_new_' || g, 'assessment', '192.0.2.' || (g % 200),
            'user:new-' || g, 'dev-new-' || g, '{}'::jsonb, now() - make_interval(secs => g * 60)
     FROM generate_series(1, ${OTHERS}) g`,
    fresh,
  );
  await app.db.$executeRawUnsafe(
    `INSERT INTO "Event" ("id", "workspaceId", "requestId", "type", "ip", "subject", "device", "data", "createdAt")
     SELECT 'ev_bob_' || g, $1, 'req_bob_' || g, 'assessment', '203.0.113.9', 'user:bob', 'dev-bob', '{}'::jsonb,
            now() - make_interval(secs => g * 600)
     FROM generate_series(1, 5) g`,
    fresh,
  );
  await countSeededEvents(app.db, fresh);
  const st = velocityStatement({
    workspaceId: fresh,
    ip: "203.0.113.9",
    email: null,
    deviceId: "dev-bob",
    userId: "bob",
    subject: "user:bob",
  });
  // The plan PostgreSQL makes for the values of each execution, as it does for a named statement's first five.
  expect(keyRowsRead(await explained(st.sql, st.params, "force_custom_plan"))).toEqual({ events: 15, counters: 7 });
});

it("reads each request's keys through their indexes in the reservation's statement too", async () => {
  // The plain /assess door's velocity read, beside the reservation (server/quota/reserve.ts ReadAlongside): its keys
  // and windows are values of the statement's own rows, not parameters. Alice twice, in one group.
  const alice = { event: "login", ip: "203.0.113.7", device_id: "dev-alice", user_id: "alice" } as AssessRequest;
  const { st, params } = reservationStatement(
    { workspaceId, now: new Date(), limit: 1_000_000 },
    [0, 1].map((i) => ({
      workspaceId,
      units: 1,
      limit: 1_000_000,
      requestId: `req_plan_${i}`,
      endpoint: "assess",
      read: velocityAlongside(workspaceId, alice).read,
    })),
    null,
  );
  const arg = (v: unknown) =>
    Array.isArray(v) ? `'{${v.join(",")}}'` : typeof v === "number" ? String(v) : literal(v);
  class RolledBack extends Error {}
  let plan: PlanNode | undefined;
  try {
    await app.db.$transaction(async (tx) => {
      // Explained with ANALYZE, so it runs: its reservation and ledger rows go with the rolled-back transaction.
      await tx.$executeRawUnsafe(`SET LOCAL plan_cache_mode = force_generic_plan`);
      await tx.$executeRawUnsafe(`PREPARE reserve_plan_test AS ${st.sql}`);
      const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
        `EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) EXECUTE reserve_plan_test(${params.map(arg).join(", ")})`,
      );
      plan = rows[0]!["QUERY PLAN"][0].Plan;
      throw new RolledBack();
    });
  } catch (err) {
    if (!(err instanceof RolledBack)) throw err;
  }
  for (const scan of [...scansOf(plan!, "Event"), ...scansOf(plan!, "VelocityCount")])
    expect(scan["Actual Loops"]).toBe(2);
  // Alice's five events, once per part she has a key for, and her address's five minutes and two pairs, for each of
  // the two requests; no other account's rows.
  expect(keyRowsRead(plan!)).toEqual({ events: 30, counters: 14 });
});

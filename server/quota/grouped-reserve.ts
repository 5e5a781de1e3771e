// Grouped reservations. Concurrent requests of one workspace all update the same UsagePeriod row, so each waits for the
// previous one's commit. While a reservation of a workspace is in flight, the requests that arrive queue behind it and
// then go to the database together, as ONE statement that reserves their total and writes each one's ledger row: one
// row lock and one commit for the whole group. Assessments' reservations may have two groups in flight on PostgreSQL
// (../db/client.ts groupsInFlight), the second waiting in the database for the first one's row lock, not for its
// round trip; every other lane one. A request that finds room goes at the end of the event loop's turn with those that
// arrived in the same turn (../db/grouped.ts). Each request still learns its exact `used` (the running total of the
// row when its group's statement took it). When a group's total does not fit in what is left, its requests are
// reserved one by one in arrival order, so the allowance is filled exactly as if they had come alone (on a lane with
// two groups in flight, the other group may take units meanwhile: order holds within a group). Same guarantees
// as reserveUnits: never over-admits, a refused request leaves no trace. One statement serves both: a lone reservation
// is a group of one. A request may carry a read to run in the same statement (./reserve.ts ReadAlongside: an
// assessment's velocity counts); such requests group in a lane of their own, by the kind of read.
import { groupsInFlight, type Db } from "../db/client";
import { groupedWriter } from "../db/grouped";
import { nextReset, periodStart } from "./period";
import { reserveOne, reserveTotal, type Reservation, type ReserveArgs, type ReserveGuard } from "./reserve";

/** At most this many requests in one grouped statement. */
const MAX_GROUP = 100;

interface Waiter {
  db: Db;
  a: ReserveArgs;
  guard?: ReserveGuard;
  now: Date;
  resolve(q: Reservation): void;
  reject(err: unknown): void;
}

/**
 * One lane per database, workspace, period, limit, guarded plans and kind of read: only requests that reserve against
 * the same row and limit, whose guards (if any) expect the same plans and that carry the same read (or none), group.
 * Requests with a read have a lane of their own, so the workspace's other reservations never wait behind reads.
 */
const reservations = groupedWriter<string, Waiter>({
  max: MAX_GROUP,
  group: reserveGroup,
  // Alone, or the group's total does not fit: one by one, in arrival order.
  one: (w) => reserveOne(w.db, { ...w.a, now: w.now }, w.guard).then(w.resolve, w.reject),
  // Two groups at once pay for themselves where the thread has work between statements (an assessment's gathering);
  // for a lookup, whose reservation is the whole of its database work, two measured worse (docs/benchmarks.md, "Two
  // groups in flight").
  inFlight: (w) => (w.a.read ? groupsInFlight(w.db) : 1),
});
const dbIds = new WeakMap<Db, number>();
let nextDbId = 0;

function laneKey(db: Db, a: ReserveArgs, now: Date, guard?: ReserveGuard): string {
  let id = dbIds.get(db);
  if (id === undefined) dbIds.set(db, (id = nextDbId++));
  return `${id}|${a.workspaceId}|${periodStart(now).getTime()}|${a.limit}|${guard ? [...guard.plans].sort().join(",") : "-"}|${a.read?.with.name ?? "-"}`;
}

/**
 * reserveUnits for a request of its own (not inside a transaction): grouped with the concurrent requests of the
 * same workspace into one statement. Resolves with this request's own quota state, null when refused, or "stale"
 * when its guard failed (nothing reserved).
 */
export function reserveUnitsGrouped(db: Db, a: ReserveArgs, guard?: ReserveGuard): Promise<Reservation> {
  const now = a.now ?? new Date();
  return new Promise((resolve, reject) =>
    reservations.add(laneKey(db, a, now, guard), { db, a, guard, now, resolve, reject }),
  );
}

/**
 * Reserves the group's total in one statement and settles every request; false (nothing settled, nothing written)
 * when it does not fit or the statement failed.
 */
async function reserveGroup(group: Waiter[]): Promise<boolean> {
  const first = group[0]!;
  const db = first.db;
  const limit = first.a.limit;
  const guarded = group.filter((w) => w.guard);
  const guard = guarded.length
    ? { apiKeyIds: [...new Set(guarded.map((w) => w.guard!.apiKeyId))], plans: guarded[0]!.guard!.plans }
    : null;
  let after: number | null | "stale";
  let reads: Awaited<ReturnType<typeof reserveTotal>>["reads"];
  try {
    ({ used: after, reads } = await reserveTotal(
      db,
      { workspaceId: first.a.workspaceId, now: first.now, limit },
      group.map((w) => w.a),
      guard,
    ));
  } catch {
    // The statement failed as a whole (nothing was written): each request tries alone and gets its own outcome.
    return false;
  }
  // Over the allowance, or a guard failed: alone, each request gets its own outcome (only its own guard counts).
  if (after === null || after === "stale") return false;
  let used = after - group.reduce((n, w) => n + w.a.units, 0);
  group.forEach((w, i) => {
    used += w.a.units;
    const q = { limit, used, remaining: Math.max(0, limit - used), reset: nextReset(w.now) };
    w.resolve(reads[i] ? { ...q, read: reads[i] } : q);
  });
  return true;
}

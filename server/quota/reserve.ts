// The reservation statement: lookup units are reserved with one conditional upsert per workspace and UTC month
// (used + n <= limit), and the ledger rows are written in the same statement: never over-admits under any
// concurrency or number of app instances, and a refused request leaves no trace. Concurrent requests share it
// through ./grouped-reserve.ts; operator corrections and refunds are ./adjust.ts; the admission sequence that
// calls it is ./admission.ts.
import { hotQuery, type Db } from "../db/client";
import { newId } from "../ids";
import { entitlingSubscriptionSql, graceCutoff } from "../billing/entitled";
import { nextReset, periodStart } from "./period";

export interface QuotaState {
  limit: number;
  used: number;
  remaining: number;
  reset: Date;
}

/**
 * A read that runs in the reservation's statement for each request that carries one, so the request pays one round
 * trip for both (the plain POST /assess door reads its velocity counts this way: server/assessment/assess.ts
 * velocityAlongside). Read-only; it runs whether or not the reservation is granted, and its answer is used only when
 * it is.
 */
export interface ReadAlongside {
  /** Names the statement's variant: the same name always means the same SQL. */
  name: string;
  /** A scalar expression for one request: over `$1` (the workspace) and `r."read"`, the request's JSON array. */
  row: string;
  /** Scalar expressions over `$1` read once per statement (the workspace's rules, its lists' version), by name. */
  also: Record<string, string>;
}

/** What a granted reservation's read gave: the request's own value, and the statement's `also` columns. */
export interface ReadResult {
  row: Record<string, unknown>;
  also: Record<string, unknown>;
}

export interface ReserveArgs {
  workspaceId: string;
  units: number;
  limit: number;
  requestId: string;
  endpoint: string;
  apiKeyId?: string | null;
  userId?: string | null;
  now?: Date;
  /** A read to run in the same statement (its values, for `r."read"`); the result comes back with the quota. */
  read?: { with: ReadAlongside; values: unknown[] };
}

/**
 * What a request read from the key cache (server/keys/cache.ts) asks the reservation to confirm in the same
 * statement: that its key is still active in this workspace and the workspace's entitling plans are still these.
 */
export interface ReserveGuard {
  apiKeyId: string;
  plans: string[];
}

/**
 * A reservation's outcome: the quota state after it (with the request's read, when it carried one), null when
 * refused, "stale" when the guard failed (nothing written).
 */
export type Reservation = (QuotaState & { read?: ReadResult }) | null | "stale";

/** Whose a ledger row is: the API key's or the member's that asked (neither for the service's own work). */
export interface Payer {
  apiKeyId: string | null;
  userId: string | null;
}

/** The payer of a request made with an API key or by a signed-in member. */
export function payerOf(p: { kind: "api_key"; apiKeyId: string } | { kind: "member"; userId: string }): Payer {
  return { apiKeyId: p.kind === "api_key" ? p.apiKeyId : null, userId: p.kind === "member" ? p.userId : null };
}

/** Reserves `units` or refuses; returns the quota state after the reservation, or null when refused. */
export async function reserveUnits(db: Db, a: ReserveArgs): Promise<QuotaState | null> {
  const r = await reserveOne(db, a);
  if (r === "stale") throw new Error("a reservation without a guard cannot be stale");
  return r;
}

export async function reserveOne(db: Db, a: ReserveArgs, guard?: ReserveGuard): Promise<Reservation> {
  const now = a.now ?? new Date();
  const { used, reads } = await reserveTotal(
    db,
    { workspaceId: a.workspaceId, now, limit: a.limit },
    [a],
    guard ? { apiKeyIds: [guard.apiKeyId], plans: guard.plans } : null,
  );
  if (used === "stale" || used === null) return used;
  const q = { limit: a.limit, used, remaining: Math.max(0, a.limit - used), reset: nextReset(now) };
  return reads[0] ? { ...q, read: reads[0] } : q;
}

// A guard ($6 key ids, $7 plans; $7 NULL for none) makes the statement write nothing unless every listed key is
// still active in the workspace and the workspace's entitling plans at $9 (grace cutoff $8) are exactly $7: the
// check of a principal served from the key cache, at no extra round trip.
function reserveSql(read: ReadAlongside | null): string {
  // The read comes first in the select list: PostgreSQL's executor runs a data-modifying CTE when it is first read (the
  // order is not documented), so the reads run before the reservation takes the period's row lock rather than under
  // it. The reads of a group run one after another in one backend, and the lane (./grouped-reserve.ts) has at most two
  // such statements in flight: a workspace's door assessments in one process get at most two backends' worth of
  // velocity reads. Its other reservations have a lane of their own and do not wait behind them.
  const reads = read
    ? [
        `(SELECT json_object_agg(r."id", ${read.row}) FROM req r WHERE r."read" IS NOT NULL) AS "reads"`,
        ...Object.entries(read.also).map(([name, sql]) => `${sql} AS "also_${name}"`),
      ]
    : [];
  return `
WITH guard AS (
  SELECT $7::text[] IS NULL OR (
    (SELECT count(*) FROM "ApiKey" k WHERE k."id" = ANY($6::text[]) AND k."workspaceId" = $1::text AND k."status" = 'active') = cardinality($6::text[])
    AND (SELECT coalesce(array_agg(s."plan"), '{}') @> $7::text[] AND coalesce(array_agg(s."plan"), '{}') <@ $7::text[]
           FROM "Subscription" s WHERE s."workspaceId" = $1::text AND ${entitlingSubscriptionSql("$8", "$9")})
  ) AS "ok"
), req AS (
  SELECT * FROM jsonb_to_recordset($5::jsonb) AS r("id" text, "requestId" text, "apiKeyId" text, "userId" text, "endpoint" text, "units" int${read ? `, "read" jsonb` : ""})
), upd AS (
  INSERT INTO "UsagePeriod" ("workspaceId", "periodStart", "used")
  SELECT $1::text, $2::timestamp(3), $3::int WHERE $3::int <= $4::int AND (SELECT "ok" FROM guard)
  ON CONFLICT ("workspaceId", "periodStart") DO UPDATE
    SET "used" = "UsagePeriod"."used" + EXCLUDED."used"
    WHERE "UsagePeriod"."used" + EXCLUDED."used" <= $4::int
  RETURNING "used"
), ledger AS (
  INSERT INTO "UsageLedger" ("id", "workspaceId", "periodStart", "requestId", "apiKeyId", "userId", "endpoint", "units", "createdAt")
  SELECT r."id", $1::text, $2::timestamp(3), r."requestId", r."apiKeyId", r."userId", r."endpoint", r."units", now() FROM req r, upd
  RETURNING 1
)
SELECT ${[...reads, `(SELECT "ok" FROM guard) AS "ok"`, `(SELECT "used" FROM upd) AS "used"`, `(SELECT count(*) FROM ledger) AS "ledger"`].join(", ")}`;
}

/** The statement's text by its name: the plain reservation, and one per kind of read alongside. */
const texts = new Map<string, string>();

function reserveStatement(read: ReadAlongside | null): { name: string; sql: string } {
  const name = read ? `service_reserve_units_${read.name}` : "service_reserve_units";
  let sql = texts.get(name);
  if (sql === undefined) texts.set(name, (sql = reserveSql(read)));
  return { name, sql };
}

/**
 * The reservation statement of `requests` (its name, text and parameters) with the ledger rows it writes and the kind
 * of read it carries; reserveTotal runs it (exported for the test of its plan).
 */
export function reservationStatement(
  at: { workspaceId: string; now: Date; limit: number },
  requests: ReserveArgs[],
  guard: { apiKeyIds: string[]; plans: string[] } | null,
) {
  const total = requests.reduce((n, r) => n + r.units, 0);
  const read = requests.find((r) => r.read)?.read?.with ?? null;
  if (read && requests.some((r) => r.read && r.read.with.name !== read.name))
    throw new Error("a reservation statement carries one kind of read");
  const rows = requests.map((r) => ({
    id: newId("led"),
    requestId: r.requestId,
    apiKeyId: r.apiKeyId ?? null,
    userId: r.userId ?? null,
    endpoint: r.endpoint,
    units: r.units,
    ...(read ? { read: r.read?.values ?? null } : {}),
  }));
  const params: unknown[] = [
    at.workspaceId,
    periodStart(at.now),
    total,
    at.limit,
    JSON.stringify(rows),
    guard ? guard.apiKeyIds : [],
    guard ? guard.plans : null,
    graceCutoff(at.now),
    at.now,
  ];
  return { st: reserveStatement(read), params, rows, read };
}

/**
 * The one reservation statement: the requests' total, or nothing, with one ledger row per request. Returns the
 * period's usage after it, null when the total does not fit, "stale" when the guard failed (nothing written); and,
 * when granted, each request's read (undefined for a request that carried none). The requests' reads must all be of
 * one kind (./grouped-reserve.ts groups by it).
 */
export async function reserveTotal(
  db: Db,
  at: { workspaceId: string; now: Date; limit: number },
  requests: ReserveArgs[],
  guard: { apiKeyIds: string[]; plans: string[] } | null,
): Promise<{ used: number | null | "stale"; reads: (ReadResult | undefined)[] }> {
  const { st, params, rows, read } = reservationStatement(at, requests, guard);
  const result = await hotQuery<{ ok: boolean; used: number | string | null } & Record<string, unknown>>(
    db,
    st.name,
    st.sql,
    params,
  );
  const row = result[0]!;
  if (!row.ok) return { used: "stale", reads: [] };
  if (row.used === null) return { used: null, reads: [] };
  let reads: (ReadResult | undefined)[] = [];
  if (read) {
    // The json column arrives parsed on every driver; text only from a driver that leaves json alone.
    const parse = (v: unknown) => (typeof v === "string" ? (JSON.parse(v) as unknown) : v);
    const byId = (parse(row.reads) ?? {}) as Record<string, Record<string, unknown>>;
    const also = Object.fromEntries(Object.keys(read.also).map((k) => [k, row[`also_${k}`]]));
    reads = rows.map((r) => (byId[r.id] ? { row: byId[r.id]!, also } : undefined));
  }
  return { used: Number(row.used), reads };
}

export async function readUsage(db: Db, workspaceId: string, limit: number, now = new Date()): Promise<QuotaState> {
  const row = await db.usagePeriod.findUnique({
    where: { workspaceId_periodStart: { workspaceId, periodStart: periodStart(now) } },
  });
  const used = row?.used ?? 0;
  return { limit, used, remaining: Math.max(0, limit - used), reset: nextReset(now) };
}

export function quotaHeaders(q: QuotaState): Record<string, string> {
  return {
    "X-Service-Quota-Limit": String(q.limit),
    "X-Service-Quota-Used": String(q.used),
    "X-Service-Quota-Remaining": String(q.remaining),
    "X-Service-Quota-Reset": q.reset.toISOString(),
  };
}

// The admission ladder, written once: every request that reaches a procedure walks these steps, in the spec's order,
// whichever door it came through. The tRPC middleware (server/api/trpc.ts: `authenticated`, `rejectUnreadableInput`,
// `meteredProcedure`) calls the sequences below, for the dashboard and for every /v1 route (the REST door,
// server/api/rest/plain-door.ts, calls the procedure itself); nothing else reserves a request's units
// (test/foundation/ladder.test.ts).
//
//   admitCaller      1. authenticate  2. key status  3. capability  4. bulk    (then every answer is counted)
//   validateInput    5. input validation (unreadable, unclean, unknown fields; the zod schema: parseInput)
//   chargeAndRun     6. burst limit  preflight and free decisions  7. reservation  8. work  9. give back, history
//   undeliveredRefund 10. refund of an answer that could not be delivered (the server that writes the answer)
//   reserveJobUnits  7. for a job's payer: a bulk job's items at submission, a monitor run before its checks
//                    (handed to server/bulk/ and server/monitors/ by ./bulk-procedures.ts; its items run prepaid)
//
// What a request costs, when it is free and what it gives back are the charging module's answers
// (server/api/charging.ts); the key cache's part of steps 1, 2 and 7 is server/quota/admission.ts.
import { TRPCError } from "@trpc/server";
import type { Db } from "../db/client";
import { AppError, toErrorBody } from "../errors";
import { recordLookupHistory, markHistoryUndelivered } from "../history/history";
import { noteRequestOutcome } from "../analytics/request-outcomes";
import { logger } from "../operate/log";
import { metrics, planLabel } from "../operate/metrics";
import type { Capability } from "../plans/catalog";
import { refundUnits } from "../quota/adjust";
import { admitMeteredRequest, authenticateCaller, refusalAfterFailure, type Judge } from "../quota/admission";
import { periodStart } from "../quota/period";
import { quotaHeaders, reserveUnits, type QuotaState, type ReadResult, type ReserveArgs } from "../quota/reserve";
import { consumeRateLimit } from "../ratelimit/ratelimit";
import { givenBackOf, unitsOf, UNDELIVERED_REASON, type GivenBack } from "./charging";
import type { Charge, Context, Principal } from "./context";
import { requirementRefusal, type Requirement } from "./contract";
import { declaredFieldsFor, unknownFieldsProblem, type DeclaredFields } from "./input-fields";
import { decide, decisionsOf, type DecidedFields } from "./input-decisions";
import { screenInput, type FreeTextPaths } from "./input-screen";

/** Key under which a door passes a malformed body or path parameter to step 5, where it is refused. */
export const INVALID_INPUT_MARKER = "__serviceInvalidInput";

/** What a step hands on: a procedure's answer or its error (tRPC's middleware result has this shape). */
export type Outcome = { ok: true; data?: unknown } | { ok: false; error: unknown };

/** What the ladder needs of a request, whichever door it came through (server/api/context.ts has it all). */
export type LadderContext = Pick<Context, "db" | "requestId" | "authenticate" | "charge" | "prepaid"> & {
  resHeaders: Pick<Headers, "get" | "set">;
  via?: Context["via"];
};

/** A per-workspace burst limit: its bucket name, how many requests per window, and what the refusal calls them. */
export interface RateLimit {
  name: string;
  limit: () => number;
  windowSeconds: () => number;
  /** What the refusal says there were too many of, e.g. "backtests" (default "<name> requests"). */
  what?: string;
}

/**
 * Counts one answer of a workspace's request for the analytics error rates (server/analytics/request-outcomes.ts),
 * once its caller is known; a bulk job's item is not a request and is not counted.
 */
export function noteOutcome(
  ctx: Pick<Context, "db" | "prepaid">,
  principal: Principal,
  procedure: string,
  status: number,
  code?: string,
): void {
  if (ctx.prepaid) return;
  noteRequestOutcome(ctx.db, {
    workspaceId: principal.workspaceId,
    apiKeyId: principal.kind === "api_key" ? principal.apiKeyId : null,
    procedure,
    status,
    code,
  });
}

/** How the ladder judges the caller of one request: its key read, and the refusal its requirements give. */
export function judgeOf(
  ctx: Pick<LadderContext, "authenticate">,
  requires: Requirement | undefined,
  rawInput: () => Promise<unknown>,
): Judge<Principal> {
  return {
    authenticate: (read) => ctx.authenticate(read),
    refusalOf: async (p) => (requires ? requirementRefusal(requires, p, rawInput) : null),
  };
}

/**
 * Steps 1 to 4. Contract: resolves the caller (1: an API key by its hash or the signed-in member of the selected
 * workspace; 401 otherwise), refuses a key that is revoked or expired (2: 401), a plan without the procedure's
 * capability (3: 403 CAPABILITY_REQUIRED) or a multi-target request without bulk lookups (4: 403
 * BULK_LOOKUPS_REQUIRED), each from the procedure's declared `requires`, and writes nothing when it refuses. A
 * metered lookup may take its key from the key cache; a refusal, or a failure before the reservation confirmed such
 * a key, is answered as a fresh read of the key answers it. From the caller on, every answer of the request is
 * counted for the analytics error rates. `rest` runs the remaining steps for the admitted principal.
 */
export async function admitCaller<R extends Outcome>(
  ctx: LadderContext,
  step: { procedure: string; requires?: Requirement; metered: boolean; rawInput: () => Promise<unknown> },
  rest: (principal: Principal) => Promise<R>,
): Promise<R> {
  const judge = judgeOf(ctx, step.requires, step.rawInput);
  const { principal, refusal } = await authenticateCaller(judge, {
    metered: step.metered,
    prepaid: Boolean(ctx.prepaid),
  });
  const note = (status: number, code?: string) => noteOutcome(ctx, principal, step.procedure, status, code);
  if (refusal) {
    note(refusal.status, refusal.appCode);
    throw refusal;
  }
  const result = await rest(principal);
  if (!result.ok) {
    const late = await refusalAfterFailure(principal, judge);
    if (late) {
      note(late.status, late.appCode);
      throw late;
    }
    const { status, body } = toErrorBody(result.error);
    note(status, body.error.code);
  } else {
    // A success may be a 202 (a scan or job still running), which the door answers from this internal header.
    note(ctx.resHeaders.get("x-service-status") === "202" ? 202 : 200);
  }
  return result;
}

/** The dashboard's infinite queries (tRPC's client) add `direction` beside the cursor on their own. */
const DIRECTION = ["direction"] as const;

/**
 * The declared fields a REST caller does not send as parameters: those its route's path carries (`{id}` of
 * /rules/{id}) and a raw body's field (the lockfile of POST /vulnerabilities/scan, sent as the body itself), from its
 * meta. The unknown-parameter message's list of what the operation takes leaves them out.
 */
function notParametersOf(meta: unknown): string[] {
  const m = meta as { openapi?: { path?: string }; rawBody?: { field?: string } } | undefined;
  const path = m?.openapi?.path;
  return [
    ...(path ? [...path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]!) : []),
    ...(m?.rawBody?.field ? [m.rawBody.field] : []),
  ];
}

/**
 * Step 5, before the schema. Contract: 400 INVALID_REQUEST, nothing written, for input the door could not read (bad
 * JSON, wrong content type, bad percent-encoding, over the byte cap: INVALID_INPUT_MARKER), input holding a NUL, a
 * lone surrogate or a control character in an identifier (input-screen.ts), and a top-level field the procedure
 * does not declare (input-fields.ts); before those two, the procedure's own refusal of input that must never be sent
 * (`neverSent`: a full card number, 400 INVALID_INPUT). `declared` is the procedure's declared fields (by default
 * those its router declared for `procedure`).
 */
export function validateInput(
  raw: unknown,
  step: {
    procedure: string;
    freeText?: FreeTextPaths;
    via?: Context["via"];
    declared?: DeclaredFields;
    neverSent?: (input: unknown) => AppError | null;
  },
  meta?: unknown,
): void {
  if (raw && typeof raw === "object" && INVALID_INPUT_MARKER in raw) {
    throw new AppError("INVALID_REQUEST", String((raw as Record<string, unknown>)[INVALID_INPUT_MARKER]));
  }
  const never = step.neverSent?.(raw);
  if (never) throw never;
  const problem = screenInput(raw, step.freeText);
  if (problem) throw new AppError("INVALID_REQUEST", problem);
  const declared = step.declared !== undefined ? step.declared : declaredFieldsFor(step.procedure, meta);
  const unknown =
    step.via === "dashboard"
      ? unknownFieldsProblem(raw, declared, DIRECTION)
      : unknownFieldsProblem(raw, declared, [], () => notParametersOf(meta));
  if (unknown) throw new AppError("INVALID_REQUEST", unknown);
}

/** Step 5, the schema: the validated input, or 400 as tRPC's input step refuses it (its message: server/errors.ts). */
export async function parseInput<T>(schema: { parseAsync(v: unknown): Promise<T> }, raw: unknown): Promise<T> {
  try {
    return await schema.parseAsync(raw);
  } catch (cause) {
    throw new TRPCError({ code: "BAD_REQUEST", cause });
  }
}

/**
 * Step 6. Contract: counts one request against the workspace's bucket, or refuses with 429 RATE_LIMITED and
 * Retry-After, nothing consumed.
 */
export async function enforceRateLimit(rl: RateLimit, workspaceId: string): Promise<void> {
  const verdict = await consumeRateLimit({
    bucket: `${rl.name}:${workspaceId}`,
    limit: rl.limit(),
    windowSeconds: rl.windowSeconds(),
  });
  if (!verdict.allowed) {
    throw new AppError(
      "RATE_LIMITED",
      `Too many ${rl.what ?? `${rl.name} requests`}; retry in ${verdict.retryAfterSeconds} s.`,
      { headers: { "Retry-After": String(verdict.retryAfterSeconds) } },
    );
  }
}

/** What steps 6 to 9 need of a metered procedure (meteredProcedure's options have it). */
export interface MeteredSteps<T> {
  capability: Capability;
  /** Name recorded in the ledger and history, e.g. "ip.geo". */
  endpoint: string;
  rateLimit?: RateLimit;
  preflight?: (input: T) => Promise<void>;
  decides?: DecidedFields<T>;
  history?: (input: T, output: any) => { target: string; summary: Record<string, unknown> };
  target?: (input: T) => string;
  unanswered?: (input: T, output: any) => GivenBack | null;
  /**
   * A read the reservation's statement runs alongside (server/quota/reserve.ts ReadAlongside: one round trip for
   * both), and what the work then takes from its result (`Admitted.alongside`); not carried while the workspace was
   * lately found spent (carriesReadAlongside), nor by a prepaid item. The work must read for itself without it.
   */
  readAlongside?: (
    workspaceId: string,
    input: T,
  ) => { read: NonNullable<ReserveArgs["read"]>; take: (read: ReadResult) => unknown };
}

/** The part of a metered procedure's options that its charge and history need. */
export type ChargedSteps<T> = Pick<MeteredSteps<T>, "capability" | "endpoint" | "history" | "target" | "unanswered">;

/**
 * What the work of an admitted request is handed: its units, its quota (null when prepaid), its principal, and what
 * it took from a read run alongside the reservation (`readAlongside`), when one was.
 */
export interface Admitted {
  units: number;
  quota: (QuotaState & { read?: ReadResult }) | null;
  principal: Principal;
  alongside?: unknown;
}

/**
 * Workspaces whose allowance this process last found spent, and when. For a while after, a reservation that could
 * carry a read in its statement (the assessment's velocity counts) goes without it: a caller that keeps calling past
 * its allowance then costs a refused reservation, not a read thrown away each time.
 */
const spentAt = new Map<string, number>();
const SPENT_MS = 10_000;
/** Entries are a few dozen bytes; past this many workspaces the map starts over rather than grow. */
const MAX_SPENT = 10_000;

/** Whether a reservation of the workspace should carry a read in its statement (not while it was lately spent). */
export function carriesReadAlongside(workspaceId: string, now = Date.now()): boolean {
  const spent = spentAt.get(workspaceId);
  return spent === undefined || now - spent > SPENT_MS;
}

/**
 * Steps 6 to 9 of a metered lookup, after the input's schema. Contract, in this order: the burst limit (6: 429, no
 * unit), the answers decided from the request alone (404, free:
 * charging.ts) and the preflight checks (the SSRF guard), then the reservation of all the request's units, atomic (7: 402 QUOTA_EXCEEDED, nothing consumed;
 * a key from the cache is confirmed in the same statement), the work (8), what it could not answer given back and
 * its history entry (9). Nothing before step 7 consumes a unit; after it, an answer counts whatever the sources
 * found. A bulk job item or monitor check (`ctx.prepaid`) was paid with its job: it skips 6 and 7 and hands what it
 * gives back to its payer. A declared `readAlongside` runs in the reservation's statement and comes back to the work as `alongside`.
 */
export async function chargeAndRun<T, R extends Outcome>(
  ctx: LadderContext,
  opts: MeteredSteps<T>,
  step: {
    procedure: string;
    typed: T;
    principal: Principal;
    requires: Requirement;
    rawInput: () => Promise<unknown>;
  },
  work: (admitted: Admitted) => Promise<R>,
): Promise<R> {
  const { typed } = step;
  const decided = () => {
    const answer = opts.decides ? decide(decisionsOf(opts.decides), typed) : null;
    if (answer) throw answer;
  };
  if (ctx.prepaid) {
    decided();
    if (opts.preflight) await opts.preflight(typed);
    ctx.prepaid.admitted = true;
    const result = await work({ units: ctx.prepaid.units, quota: null, principal: step.principal });
    const back = givenBackOf(opts, typed, result, ctx.prepaid.units);
    if (back) ctx.prepaid.givenBack = back;
    rememberCharged(ctx, opts, typed, result, ctx.prepaid.units, step.principal, back);
    return result;
  }
  if (opts.rateLimit) await enforceRateLimit(opts.rateLimit, step.principal.workspaceId);
  // The answers decided from the request alone come before the preflight: a special-use name is refused the same
  // way on every route that takes a host name, and no resolver is ever asked about it (the preflight's SSRF guard
  // would resolve it; on Kubernetes `*.svc.cluster.local` asks the service's own resolver).
  decided();
  if (opts.preflight) await opts.preflight(typed);
  const units = unitsOf(step.procedure, typed);
  const judge = judgeOf(ctx, step.requires, step.rawInput);
  const workspaceId = step.principal.workspaceId;
  const alongside =
    opts.readAlongside && carriesReadAlongside(workspaceId) ? opts.readAlongside(workspaceId, typed) : null;
  let admission;
  try {
    admission = await reserve({ ...ctx, principal: step.principal }, opts, units, judge, alongside?.read);
  } catch (err) {
    if (err instanceof AppError && err.appCode === "QUOTA_EXCEEDED") {
      if (spentAt.size >= MAX_SPENT) spentAt.clear();
      spentAt.set(step.principal.workspaceId, Date.now());
    }
    throw err;
  }
  spentAt.delete(step.principal.workspaceId);
  const { principal, quota, charge } = admission;
  const read = alongside && quota.read ? alongside.take(quota.read) : undefined;
  const result = await work({ units, quota, principal, alongside: read });
  let back = givenBackOf(opts, typed, result, units);
  if (back && !(await giveBack(ctx, charge, back, quota))) back = null;
  rememberCharged(ctx, opts, typed, result, units, principal, back);
  return result;
}

/**
 * Step 7, the reservation: the only caller of server/quota/admission.ts's admitMeteredRequest. Contract: reserves
 * `units` atomically (402 QUOTA_EXCEEDED otherwise, nothing consumed), fills the request's charge slot (what an
 * undelivered answer gives back), counts the units-reserved metric, and sets the quota headers and `Cache-Control:
 * private, no-store` on the answer.
 */
async function reserve<T>(
  ctx: LadderContext & { principal: Principal },
  opts: ChargedSteps<T>,
  units: number,
  judge: Judge<Principal>,
  read?: ReserveArgs["read"],
): Promise<{ principal: Principal; quota: QuotaState & { read?: ReadResult }; charge: Charge }> {
  const { principal, quota, reservation } = await admitMeteredRequest({
    db: ctx.db,
    principal: ctx.principal,
    units,
    requestId: ctx.requestId,
    endpoint: opts.endpoint,
    judge,
    read,
  });
  const charge: Charge = {
    workspaceId: reservation.workspaceId,
    units,
    requestId: reservation.requestId,
    endpoint: reservation.endpoint,
    apiKeyId: reservation.apiKeyId ?? null,
    userId: reservation.userId ?? null,
    reservedAt: reservation.now ?? new Date(),
  };
  if (ctx.charge) ctx.charge.current = { ...charge };
  metrics().unitsReserved.inc({ capability: opts.capability, plan: planLabel(principal.entitlements.plans) }, units);
  for (const [k, v] of Object.entries(quotaHeaders(quota))) ctx.resHeaders.set(k, v);
  ctx.resHeaders.set("Cache-Control", "private, no-store");
  return { principal, quota, charge };
}

/**
 * Step 9, giving back: what a request did not get answered, before its answer is written: a ledger row of negative
 * units with the reason, the answer's quota headers counting without them (so they agree with GET /v1/usage), and
 * a smaller charge for the refund of an answer that then cannot be delivered (step 10). False when the refund could
 * not be written (the request then stays charged, as its history entry says).
 */
export async function giveBack(
  ctx: Pick<LadderContext, "db" | "charge" | "resHeaders">,
  charge: Charge,
  back: GivenBack,
  quota: QuotaState,
): Promise<boolean> {
  try {
    const used = await refundUnits(ctx.db, {
      workspaceId: charge.workspaceId,
      periodStart: periodStart(charge.reservedAt),
      units: back.units,
      requestId: charge.requestId,
      endpoint: charge.endpoint,
      apiKeyId: charge.apiKeyId,
      userId: charge.userId,
      reason: back.reason,
    });
    const after = { ...quota, used, remaining: Math.max(0, quota.limit - used) };
    for (const [k, v] of Object.entries(quotaHeaders(after))) ctx.resHeaders.set(k, v);
  } catch (err) {
    // The database that failed the request may fail the refund too: said in the log, with what was owed.
    logger().error(
      { err, request_id: charge.requestId, units: back.units },
      "giving back the units of an unanswered request failed",
    );
    return false;
  }
  const slot = ctx.charge;
  if (slot?.current) {
    const left = slot.current.units - back.units;
    slot.current = left > 0 ? { ...slot.current, units: left } : null;
  }
  return true;
}

/**
 * Step 9, history: every charged request is a history entry, when the plan keeps history: the units it was charged
 * once what it gave back is taken off, and its outcome (status code), with the route's safe summary on success; a
 * failure keeps only its target. What was given back is in the summary (`refunded_units`, `refund_reason`). So the
 * month's entries add up to the units used. Called only after the units were reserved (or prepaid with a job).
 */
export function rememberCharged<T>(
  ctx: Pick<LadderContext, "db" | "requestId" | "resHeaders">,
  opts: ChargedSteps<T>,
  typed: T,
  result: { ok: boolean; data?: unknown; error?: unknown },
  units: number,
  principal: Principal,
  back: GivenBack | null = null,
): void {
  const { entitlements, workspaceId } = principal;
  if (entitlements.historyDays <= 0) return;
  let entry = {
    target: opts.target ? opts.target(typed) : targetOf(typed),
    summary: {} as Record<string, unknown>,
  };
  let status = 200;
  let code: string | null = null;
  if (result.ok) {
    status = ctx.resHeaders.get("x-service-status") === "202" ? 202 : 200;
    if (opts.history) entry = opts.history(typed, result.data);
  } else {
    const { status: s, body } = toErrorBody(result.error);
    status = s;
    code = body.error.code;
  }
  if (back) entry.summary = { ...entry.summary, refunded_units: back.units, refund_reason: back.reason };
  recordLookupHistory(ctx.db, {
    workspaceId,
    requestId: ctx.requestId,
    endpoint: opts.endpoint,
    target: entry.target,
    summary: entry.summary,
    units: units - (back?.units ?? 0),
    status,
    code,
    historyDays: entitlements.historyDays,
  });
}

/** What a request was about, for a history entry without the route's summary: its first plain input value. */
function targetOf(input: unknown): string {
  if (input === null || input === undefined) return "";
  if (typeof input !== "object") return String(input);
  for (const v of Object.values(input as Record<string, unknown>)) {
    if (typeof v === "string" && v) return v;
    if (typeof v === "number") return String(v);
    if (Array.isArray(v) && v.length && typeof v[0] === "string") return v.join(", ");
  }
  return "";
}

/**
 * Step 10. Contract: gives back what one request was charged when its answer could not be delivered (the client
 * closed the connection first, or the write failed), with a ledger row saying why, and marks its history entry 499
 * with no units, so the month's entries still add up to the units used.
 */
export async function refundUndelivered(db: Db, charge: Charge): Promise<void> {
  await refundUnits(db, {
    workspaceId: charge.workspaceId,
    periodStart: periodStart(charge.reservedAt),
    units: charge.units,
    requestId: charge.requestId,
    endpoint: charge.endpoint,
    apiKeyId: charge.apiKeyId,
    userId: charge.userId,
    reason: UNDELIVERED_REASON,
  });
  await markHistoryUndelivered(db, charge.workspaceId, charge.requestId, UNDELIVERED_STATUS, UNDELIVERED_CODE);
}

export const UNDELIVERED_STATUS = 499;
export const UNDELIVERED_CODE = "CLIENT_CLOSED_REQUEST";

/** Step 10's refund of a charged request's answer, callable at most once; null when nothing was charged. */
export function undeliveredRefund(db: Db, slot: { current: Charge | null }): (() => void) | null {
  const charge = slot.current;
  if (!charge) return null;
  let called = false;
  return () => {
    if (called) return;
    called = true;
    refundUndelivered(db, charge).catch((err) =>
      logger().error({ err, request_id: charge.requestId }, "refunding an undelivered answer failed"),
    );
  };
}

/** What a job's payer reserves: a bulk job's items at submission, or a monitor run (server/bulk/procedures.ts). */
export type JobReservation = Pick<
  ReserveArgs,
  "workspaceId" | "units" | "limit" | "requestId" | "endpoint" | "apiKeyId" | "userId" | "now"
>;

/**
 * Step 7 for a job's payer: a bulk job's items at submission (endpoint "bulk.job", in the transaction that writes
 * the job and its items: `db` may be that transaction) and a monitor run before its checks run ("monitor.run").
 * Contract: reserves all of `units` at once, atomically, as one ledger row under `requestId` (the job's request, or
 * the run's id), within the monthly allowance `limit`; answers the quota state after it, or null when the allowance
 * has not that many left (nothing consumed: the caller refuses with 402 QUOTA_EXCEEDED, or records a skipped run).
 * The units are charging.ts's answer (bulkItemUnits, monitorCheckUnits); each item or check then runs under this
 * reservation (`prepaid`: chargeAndRun skips steps 6 and 7) and is never charged again; what it gives back is
 * charging.ts's too. Handed to server/bulk/ and server/monitors/ by the API layer (server/api/bulk-procedures.ts).
 */
export async function reserveJobUnits(db: Db, job: JobReservation): Promise<QuotaState | null> {
  return reserveUnits(db, job);
}

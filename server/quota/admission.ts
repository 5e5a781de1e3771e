// Metered admission in one readable sequence, the key cache's whole story with it. The ladder (server/api/trpc.ts)
// calls these steps in this order, at the points where the spec places them:
//   1. authenticateCaller, at the top (`authenticated`): a metered lookup may take its key from the key cache
//      (server/keys/cache.ts; the principal is `unconfirmed`), and a refusal by the procedure's requirements is
//      never judged by a cached key alone: the key is read again and judged again;
//   (the ladder then refuses what the input, the burst limit and the preflight refuse; nothing is consumed)
//   2. admitMeteredRequest, after those (`meteredProcedure`): reserve with a guard that confirms a cached key in
//      the same statement; on "stale", read the key again, judge it again and reserve again; else 402;
//   3. refusalAfterFailure, when the request failed before step 2 confirmed a cached key: the answer is the one a
//      fresh read of the key gives.
// Nothing before the reservation consumes a unit; a refusal here writes nothing.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { forgetWorkspaceKeys } from "../keys/cache";
import { metrics } from "../operate/metrics";
import { reserveUnitsGrouped } from "./grouped-reserve";
import { payerOf, type QuotaState, type ReadResult, type ReserveArgs } from "./reserve";

/** What admission needs to know of the caller (server/api/context.ts's Principal has it). */
export type AdmissionPrincipal = { workspaceId: string; entitlements: { monthlyUnits: number } } & (
  { kind: "api_key"; apiKeyId: string; unconfirmed?: { plans: string[] } } | { kind: "member"; userId: string }
);

/** A principal from the key cache that no reservation has confirmed yet. */
const isUnconfirmed = (p: AdmissionPrincipal) => p.kind === "api_key" && p.unconfirmed !== undefined;

/** How the ladder judges a caller: its key read (server/api/context.ts `authenticate`) and its refusal, if any. */
export interface Judge<Principal extends AdmissionPrincipal> {
  /** Resolves the caller; `cached` may take the key from the key cache, `fresh` reads it past the cache. */
  authenticate: (read?: "cached" | "fresh") => Promise<Principal>;
  /** The refusal the procedure's declared requirements give a principal, or null. */
  refusalOf: (p: Principal) => Promise<AppError | null>;
}

/**
 * Step 1: who is calling, and the refusal the procedure's requirements give them. A metered lookup takes its key
 * from the key cache when it holds it and counts the hit or miss (a bulk job's item, prepaid with its job, is not
 * a request of its own and is not counted). A refusal is never judged by a cached key alone: the key is read again
 * first.
 */
export async function authenticateCaller<Principal extends AdmissionPrincipal>(
  judge: Judge<Principal>,
  request: { metered: boolean; prepaid: boolean },
): Promise<{ principal: Principal; refusal: AppError | null }> {
  let principal = await judge.authenticate(request.metered ? "cached" : undefined);
  if (request.metered && !request.prepaid && principal.kind === "api_key")
    metrics().keyCache.inc({ outcome: principal.unconfirmed ? "hit" : "miss" });
  let refusal = await judge.refusalOf(principal);
  if (refusal && isUnconfirmed(principal))
    refusal = await judge.refusalOf((principal = await judge.authenticate("fresh")));
  return { principal, refusal };
}

export interface Admission<Principal extends AdmissionPrincipal> {
  /** Who is admitted: the principal the reservation confirmed (read again if the cached one was stale). */
  principal: Principal;
  quota: QuotaState & { read?: ReadResult };
  /** What was reserved (and when), for the units an unanswered or undelivered request gives back. */
  reservation: ReserveArgs;
}

/**
 * Step 2: reserves `units` for the request, in this order:
 * 1. reserve, with a guard when the principal came from the key cache (key still active, same entitling plans);
 * 2. the guard failed ("stale"): forget the workspace's cached keys, read the key again, judge it again by the
 *    procedure's requirements (401 revoked, 403 a lost plan), and reserve again without a guard;
 * 3. the allowance does not cover the request: 402 QUOTA_EXCEEDED.
 */
export async function admitMeteredRequest<Principal extends AdmissionPrincipal>(a: {
  db: Db;
  principal: Principal;
  units: number;
  requestId: string;
  endpoint: string;
  judge: Judge<Principal>;
  /** A read to run in the reservation's statement (./reserve.ts ReadAlongside); its result is `quota.read`. */
  read?: ReserveArgs["read"];
}): Promise<Admission<Principal>> {
  let principal = a.principal;
  // One instant for the reservation and for what it may give back later (the refund goes to the same month).
  const now = new Date();
  const reservation = (of: Principal): ReserveArgs => ({
    workspaceId: of.workspaceId,
    units: a.units,
    limit: of.entitlements.monthlyUnits,
    requestId: a.requestId,
    endpoint: a.endpoint,
    ...payerOf(of),
    now,
    ...(a.read ? { read: a.read } : {}),
  });
  const guard =
    principal.kind === "api_key" && principal.unconfirmed
      ? { apiKeyId: principal.apiKeyId, plans: principal.unconfirmed.plans }
      : undefined;
  let quota = await reserveUnitsGrouped(a.db, reservation(principal), guard);
  // Confirmed (or found stale): from here on, a failure is the request's own and no fresh read re-judges it.
  if (principal.kind === "api_key") delete principal.unconfirmed;
  if (quota === "stale") {
    metrics().keyCache.inc({ outcome: "stale" });
    forgetWorkspaceKeys(a.db, principal.workspaceId);
    principal = await a.judge.authenticate("fresh");
    const refusal = await a.judge.refusalOf(principal);
    if (refusal) throw refusal;
    quota = await reserveUnitsGrouped(a.db, reservation(principal));
    if (quota === "stale") throw new Error("an unguarded reservation cannot be stale");
  }
  if (!quota) {
    throw new AppError("QUOTA_EXCEEDED", quotaExceededMessage(principal.entitlements.monthlyUnits, a.units));
  }
  return { principal, quota, reservation: reservation(principal) };
}

/**
 * The 402's words. A refused reservation does not say how much is left, and some may be (2 units left for a request
 * of 3 targets): "is exhausted" read as false there.
 */
export function quotaExceededMessage(monthlyUnits: number, units: number): string {
  return `This request needs ${units} lookup unit${units === 1 ? "" : "s"}, more than is left of the monthly allowance of ${monthlyUnits}; it resets at the start of the next UTC month.`;
}

/**
 * Step 3: the request was refused or failed before its reservation confirmed a key from the cache (input, burst
 * limit, preflight). Its answer is the one a fresh read of the key gives (401 for a key revoked meanwhile, 403 for
 * a lost plan), or null when the key still holds (or was confirmed) and the request keeps its own answer.
 */
export async function refusalAfterFailure<Principal extends AdmissionPrincipal>(
  principal: Principal,
  judge: Judge<Principal>,
): Promise<AppError | null> {
  if (!isUnconfirmed(principal)) return null;
  return judge.refusalOf(await judge.authenticate("fresh"));
}

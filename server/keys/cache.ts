// Secret keys the metered path has read lately, so an admitted lookup pays no authentication round trip: the
// key's row (status, workspace, entitling plans) and the entitlements worked out from it, per database.
//
// A cached row is never trusted on its own. A principal served from here is `unconfirmed`, and metered admission
// (server/quota/admission.ts) settles it before anything is answered: its reservation statement checks, in the
// same round trip, that the key is still active and the workspace's entitling plans are still these
// (server/quota/reserve.ts `guard`); when they are not, or when the request is refused or fails before the
// reservation, the key is read again and the request judged by what was read. So a revocation or plan change, on
// any instance and by any writer (the dashboard, billing webhooks, an operator's SQL), takes effect on the next
// request, with no notification to miss. Entries also expire after SERVICE_KEY_CACHE_SECONDS and at the next time
// the workspace's plans could change by themselves (a grace period or a cancelled period ending), so a row that is
// never contradicted is still read again.
import type { Db } from "../db/client";
import { entitlementsFor, type Entitlements } from "../plans/catalog";
import type { KeyRow } from "./key-row";
import { keyCacheSeconds } from "./config";

export interface CachedKey {
  row: KeyRow;
  entitlements: Entitlements;
  until: number;
}

/** Entries are a few hundred bytes; past this many keys the cache starts over rather than grow. */
const MAX_CACHED = 10_000;
const byDb = new WeakMap<Db, Map<string, CachedKey>>();

function entriesOf(db: Db): Map<string, CachedKey> {
  let m = byDb.get(db);
  if (!m) byDb.set(db, (m = new Map()));
  return m;
}

/** The cached active key with this hash, or null (absent, expired or the cache is off). */
export function cachedKey(db: Db, hash: string): CachedKey | null {
  const m = byDb.get(db);
  const hit = m?.get(hash);
  if (!hit) return null;
  if (keyCacheSeconds() <= 0) {
    m!.clear();
    return null;
  }
  if (hit.until <= Date.now()) {
    m!.delete(hash);
    return null;
  }
  return hit;
}

/**
 * Keeps a key row just read from the database: adds it when `add`, else only replaces an entry the cache holds
 * (a fresh read elsewhere keeps the metered path's entry current without filling the cache with every key).
 * `planChangeAt` is the next time the row's plans could change without a write (the end of a grace period or of a
 * cancelled subscription's period), when there is one.
 */
export function rememberKey(db: Db, hash: string, row: KeyRow, planChangeAt: Date | null, add: boolean): void {
  const ttl = keyCacheSeconds() * 1000;
  if (ttl <= 0 || row.status !== "active") return;
  if (!add && !byDb.get(db)?.has(hash)) return;
  const m = entriesOf(db);
  if (m.size >= MAX_CACHED) m.clear();
  const until = Math.min(Date.now() + ttl, planChangeAt ? new Date(planChangeAt).getTime() : Infinity);
  m.set(hash, { row, entitlements: entitlementsFor(row.plans ?? []), until });
}

/** Drops a key (read again and found revoked, paused or gone, or contradicted by a reservation's check). */
export function forgetCachedKey(db: Db, hash: string): void {
  byDb.get(db)?.delete(hash);
}

/** Drops every cached key of a workspace (its plans changed under a cached principal). */
export function forgetWorkspaceKeys(db: Db, workspaceId: string): void {
  const m = byDb.get(db);
  if (!m) return;
  for (const [hash, e] of m) if (e.row.workspaceId === workspaceId) m.delete(hash);
}

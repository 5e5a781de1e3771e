// The weight set /assess scores with, cached per workspace so an assessment normally pays no database read for it.
// A switch on this instance forgets the entry at once; other instances read it again within
// SERVICE_WEIGHTS_CACHE_SECONDS (the authentication path reads no workspace row to piggyback on). The read runs
// beside the evidence lookups, so even a cache miss adds no round trip to the assessment's latency.
import type { Db } from "../db/client";
import type { LearnedWeights, WeightSet } from "../scoring/score";
import { weightsCacheSeconds } from "./config";

export interface WeightsInUse {
  set: WeightSet;
  /** The learned snapshot when `set` is learned, else null. */
  learned: LearnedWeights | null;
}

const DEFAULTS: WeightsInUse = { set: "default", learned: null };
/** Entries are a few hundred bytes; past this many workspaces the cache starts over rather than grow. */
const MAX_CACHED = 10_000;
const cache = new Map<string, { value: WeightsInUse; until: number }>();
/** Bumped on every forget, so a read that started before a switch never stores the old set after it. */
let generation = 0;

export async function weightsInUse(db: Db, workspaceId: string): Promise<WeightsInUse> {
  const now = Date.now();
  const hit = cache.get(workspaceId);
  if (hit && hit.until > now) return hit.value;
  const started = generation;
  const row = await db.workspaceWeights.findUnique({ where: { workspaceId }, select: { mode: true, weights: true } });
  const value: WeightsInUse =
    row?.mode === "learned" && row.weights && typeof row.weights === "object"
      ? { set: "learned", learned: Object.freeze({ ...(row.weights as Record<string, number>) }) }
      : DEFAULTS;
  const ttl = weightsCacheSeconds() * 1000;
  if (cache.size >= MAX_CACHED) cache.clear();
  if (ttl > 0 && started === generation) cache.set(workspaceId, { value, until: now + ttl });
  return value;
}

export function forgetWeightsInUse(workspaceId: string): void {
  generation += 1;
  cache.delete(workspaceId);
}

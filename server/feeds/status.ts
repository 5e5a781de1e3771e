// `feeds status`: what each feed holds now, where it came from, how old it is, and its licence.
import { getFeed } from "./loader";
import { feedRefreshStates, type FeedRefreshState } from "./schedule";
import { listFeeds } from "./registry";
import type { FeedDb } from "./store";

export interface FeedStatus {
  name: string;
  description: string;
  origin: "shipped" | "refreshed";
  count: number;
  version: string | null;
  fetchedAt: string;
  ageSeconds: number;
  sourceUrl: string | null;
  license: string;
  attribution: string | null;
  /** Set when the feed could not be loaded at all (a missing or malformed shipped file). */
  error: string | null;
  /** Its scheduled refresh: cadence, next run, the last failure (the data in use is kept when one fails). */
  refresh: FeedRefreshState;
}

export async function feedStatus(db: FeedDb): Promise<FeedStatus[]> {
  const out: FeedStatus[] = [];
  const refresh = await feedRefreshStates(db);
  for (const def of listFeeds()) {
    const base = {
      name: def.name,
      description: def.description,
      license: def.license,
      attribution: def.attribution,
      sourceUrl: def.sourceUrl(),
      refresh: refresh.get(def.name)!,
    };
    try {
      const s = await getFeed(def, { db });
      out.push({
        ...base,
        origin: s.origin,
        count: s.count,
        version: s.version,
        fetchedAt: s.fetchedAt.toISOString(),
        ageSeconds: Math.max(0, Math.round((Date.now() - s.fetchedAt.getTime()) / 1000)),
        error: null,
      });
    } catch (err) {
      out.push({
        ...base,
        origin: "shipped",
        count: 0,
        version: null,
        fetchedAt: new Date(0).toISOString(),
        ageSeconds: 0,
        error: (err as Error).message,
      });
    }
  }
  return out;
}

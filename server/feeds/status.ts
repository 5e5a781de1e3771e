// `feeds status`: what each feed holds now, where it came from, how old it is, and its licence.
import { getFeed } from "./loader";
import { feedRefreshStates, type FeedRefreshState } from "./schedule";
import { listFeeds } from "./registry";
import { describedAs } from "./source";
import type { FeedDb } from "./store";

export interface FeedStatus {
  name: string;
  description: string;
  origin: "shipped" | "refreshed";
  count: number;
  version: string | null;
  /** When the data in use was fetched; null when there is none yet (a list shipped empty, never refreshed). */
  fetchedAt: string | null;
  ageSeconds: number | null;
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
      // A list shipped empty (Spamhaus's, whose terms ask users to fetch it) says 1970: it has no age.
      const at = s.fetchedAt.getTime();
      out.push({
        ...base,
        ...describedAs(def, s.origin),
        origin: s.origin,
        count: s.count,
        version: s.version,
        fetchedAt: at > 0 ? s.fetchedAt.toISOString() : null,
        ageSeconds: at > 0 ? Math.max(0, Math.round((Date.now() - at) / 1000)) : null,
        error: null,
      });
    } catch (err) {
      out.push({
        ...base,
        ...describedAs(def, "shipped"),
        origin: "shipped",
        count: 0,
        version: null,
        fetchedAt: null,
        ageSeconds: null,
        error: (err as Error).message,
      });
    }
  }
  return out;
}

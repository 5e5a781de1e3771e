// How an answer names a feed it used: which data, from where, how fresh, under which licence.
import type { FeedDefinition, FeedState } from "./types";

export interface FeedSourceRef {
  name: string;
  description: string;
  origin: "shipped" | "refreshed";
  /** null when the feed has never held data (shipped empty, never refreshed). */
  fetchedAt: string | null;
  count: number;
  version: string | null;
  license: string;
  attribution: string | null;
}

export function feedSourceRef<T>(def: FeedDefinition<T>, state: FeedState<T>): FeedSourceRef {
  const t = state.fetchedAt.getTime();
  const about = describedAs(def, state.origin);
  return {
    name: def.name,
    description: about.description,
    origin: state.origin,
    fetchedAt: t > 0 ? state.fetchedAt.toISOString() : null,
    count: state.count,
    version: state.version,
    license: def.license,
    attribution: about.attribution,
  };
}

/** The description and attribution of the data in use: the shipped snapshot's own where it is another list. */
export function describedAs<T>(
  def: FeedDefinition<T>,
  origin: FeedState<T>["origin"],
): { description: string; attribution: string | null } {
  return origin === "shipped" && def.shipped
    ? def.shipped
    : { description: def.description, attribution: def.attribution };
}

/** Why a feed could not answer, or null when it holds data. */
export function emptyFeedReason<T>(def: FeedDefinition<T>, state: FeedState<T>): string | null {
  return state.count > 0
    ? null
    : `The ${def.name} feed holds no data yet (shipped empty); an operator fills it with \`feeds refresh --feed ${def.name}\`.`;
}

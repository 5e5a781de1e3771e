// Every feed the service knows, by name: the CLI's `feeds refresh` and `feeds status` walk this list. Feeds of
// other areas are imported here; an area may also call registerFeed() for a feed defined elsewhere.
import { EMAIL_FEEDS } from "../email/feeds";
import { VULNERABILITY_FEEDS } from "../vulnerabilities/kev-feed";
import { BUILTIN_FEEDS } from "./definitions";
import type { FeedDefinition } from "./types";

const feeds = new Map<string, FeedDefinition<unknown>>();

for (const def of [...BUILTIN_FEEDS, ...EMAIL_FEEDS, ...VULNERABILITY_FEEDS] as FeedDefinition<unknown>[])
  feeds.set(def.name, def);

export function registerFeed<T>(def: FeedDefinition<T>): void {
  feeds.set(def.name, def as FeedDefinition<unknown>);
}

export function listFeeds(): FeedDefinition<unknown>[] {
  return [...feeds.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function findFeed(name: string): FeedDefinition<unknown> | null {
  return feeds.get(name) ?? null;
}

// Membership tests against the email feeds: the shipped snapshot, or a refreshed copy once `feeds refresh` stored one.
import { getFeedSync } from "../feeds/loader";
import type { FeedDefinition, FeedState } from "../feeds/types";
import { disposableDomainsFeed, freeEmailDomainsFeed, roleAccountsFeed, type RoleAccounts } from "./feeds";

export interface FeedSource {
  name: string;
  license: string;
  count: number;
  fetchedAt: string;
  origin: FeedState<unknown>["origin"];
}

const load = <T>(def: FeedDefinition<T>): FeedState<T> => getFeedSync(def);

export function feedSource(def: FeedDefinition<unknown>): FeedSource {
  const s = load(def);
  return {
    name: def.name,
    license: def.license,
    count: s.count,
    fetchedAt: s.fetchedAt.toISOString(),
    origin: s.origin,
  };
}

/** Parent domains count: "x.mailinator.com" is as disposable as "mailinator.com". */
function matchesDomainOrParent(set: Set<string>, domain: string): string | null {
  let d = domain;
  for (;;) {
    if (set.has(d)) return d;
    const dot = d.indexOf(".");
    if (dot < 0 || d.indexOf(".", dot + 1) < 0) return null; // stop before the bare TLD
    d = d.slice(dot + 1);
  }
}

export function disposableMatch(domain: string): string | null {
  return matchesDomainOrParent(load(disposableDomainsFeed).data, domain);
}

/** Free providers are matched exactly: a company sub-domain of a free provider is not a free mailbox. */
export function isFreeProviderDomain(domain: string): boolean {
  return load(freeEmailDomainsFeed).data.has(domain) && disposableMatch(domain) === null;
}

export function roleAccountCategory(localPart: string): string | null {
  const roles: RoleAccounts = load(roleAccountsFeed).data;
  const base = localPart.toLowerCase().split("+")[0];
  return roles.get(base) ?? roles.get(base.replace(/[._-]/g, "")) ?? null;
}

export function emailFeedSources(): FeedSource[] {
  return [disposableDomainsFeed, freeEmailDomainsFeed, roleAccountsFeed].map((d) =>
    feedSource(d as FeedDefinition<unknown>),
  );
}

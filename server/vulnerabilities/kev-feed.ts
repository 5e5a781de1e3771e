// CISA's Known Exploited Vulnerabilities catalog as a feed: shipped complete as data/feeds/kev.json (catalog
// 2025.08.25, 1,404 records, CC0) and refreshed from CISA's JSON feed by `npm run admin -- feeds refresh --feed
// kev`. SERVICE_FEED_KEV_URL overrides the source ("off" disables it).
import { feedSourceUrl, shippedFeedFile } from "../feeds/config";
import type { FeedDefinition } from "../feeds/types";
import { parseKevCatalog, type KevCatalog } from "./kev-parse";

export const CISA_KEV_FEED_URL = "https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json";

export const kevFeed: FeedDefinition<KevCatalog> = {
  name: "kev",
  description: "CISA Known Exploited Vulnerabilities catalog",
  license: "CC0 1.0 / public domain (work of the U.S. Government, 17 U.S.C. 105)",
  attribution: "Cybersecurity and Infrastructure Security Agency (CISA), Known Exploited Vulnerabilities Catalog",
  snapshotPath: shippedFeedFile("kev.json"),
  sourceUrl: () => feedSourceUrl("kev", CISA_KEV_FEED_URL),
  parse(raw) {
    const data = parseKevCatalog(raw);
    // An empty catalog is a broken download, never CISA's answer: refusing it keeps the previous data.
    if (data.entries.length === 0) throw new Error("KEV catalog has no records");
    return { data, count: data.entries.length, version: data.catalogVersion };
  },
};

/** The feeds this area defines, for server/feeds/registry.ts. */
export const VULNERABILITY_FEEDS: FeedDefinition<unknown>[] = [kevFeed as FeedDefinition<unknown>];

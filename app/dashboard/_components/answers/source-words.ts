// The sources of an assessment's answer in a user's words. The answer names each source by its id
// ("hosting-asns", "workspace-events") with an origin token ("shipped", "embedded", "dns", "workspace"): a feed is
// named by its description from the data sources list (GET /sources, as the Data sources page names it), the
// service's own sources by the words below, and the kind and the date in words. The id stays beside the title in
// the answer, for support and the API.
import { formatUtc } from "../format";

/** Sources that are not feeds: the request itself, live lookups, the workspace's records, shipped libraries. */
const OWN_SOURCES: Record<string, string> = {
  request: "the request",
  dns: "DNS lookup",
  geo: "IP geolocation",
  "workspace-events": "This workspace's past assessments",
  "device-signals": "This workspace's device signals",
  "libphonenumber-js": "Phone numbering plans (libphonenumber)",
  "iana-special-purpose-registries": "IANA special-purpose address registries",
  "common-email-domains": "Common email domains (for typos)",
};

const KIND_WORDS: Record<string, string> = {
  shipped: "List shipped with the release",
  refreshed: "List refreshed from its source",
  embedded: "Database built into the service",
  dns: "Looked up live",
  workspace: "This workspace's own records",
};

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A source's title: a feed's description, the service's own words for its other sources, else the name as given. */
export function sourceTitle(name: string, feeds: ReadonlyMap<string, string>): string {
  const own = OWN_SOURCES[name];
  return feeds.get(name) ?? (own ? capital(own) : name);
}

/** What kind of source it is, from the answer's origin. */
export function sourceKind(origin: string): string {
  return KIND_WORDS[origin] ?? capital(origin);
}

/** When its data is from: a feed without data has none yet; another source without a date is not dated. */
export function sourceDate(s: { name: string; fetched_at: string | null }, feeds: ReadonlyMap<string, string>): string {
  if (s.fetched_at) return formatUtc(s.fetched_at);
  return feeds.has(s.name) ? "No data yet" : "Not dated";
}

/** Where a signal's evidence came from, in words ("the request, Tor exit relay addresses (...)"). */
export function evidenceWords(names: readonly string[], feeds: ReadonlyMap<string, string>): string {
  return names.map((n) => feeds.get(n) ?? OWN_SOURCES[n] ?? n).join(", ");
}

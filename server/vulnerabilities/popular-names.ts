// The popular package names each ecosystem's typosquat check compares against (issue 25, item 5). npm's ships with
// the service under data/popular/ and is dated by its source's release. PyPI's cannot ship (no openly licensed list
// was found): it is built at refresh time from the source SERVICE_PYPI_POPULAR_URL names (popular-refresh.ts), with
// each project's download count, and installed here. An ecosystem with no list answers with the reason rather than
// an empty list that looks like "nothing is popular".
import { readFileSync } from "node:fs";
import path from "node:path";
import { setting } from "../env";
import { processWide } from "../process-wide";
import { OSV_ECOSYSTEM, type Ecosystem } from "./versions/ecosystems";

export type PopularNamesInfo = {
  source: string;
  /** The source's release date (ISO 8601); null when no list is in use. */
  date: string | null;
  count: number;
  /** Why there is no list; null when there is one. */
  reason: string | null;
  /** Why the last refresh failed (refreshed lists only; the list in use, if any, is an earlier one); absent otherwise. */
  refreshError?: string;
};

/** A list built at refresh time: names most downloaded first, each with its download count in the source's period. */
export type RefreshedPopularList = {
  names: string[];
  downloads: number[];
  /** Where it was built from (the configured URL). */
  source: string;
  /** The source's own date (ISO 8601): the end of the period its counts cover. */
  date: string;
  /** When the service fetched it, to tell a newer stored copy from the one in memory. */
  fetchedAt: Date;
};

/** The download counts a refreshed list carries, for the exact 100-times rule. */
export type PopularDownloads = {
  /** By rank - 1, like popularNames(). */
  counts: readonly number[];
  /** The least downloaded listed project's count: a project not on the list had no more than this. */
  floor: number;
  /** The source's date (ISO 8601), the end of the counted period. */
  date: string;
  /** A listed project's count by its normalised name (PEP 503 for PyPI); null when it is not listed. */
  countOf(name: string): number | null;
};

type PopularList = { names: readonly string[]; info: PopularNamesInfo; downloads: PopularDownloads | null };

type ShippedPopularFile = { source: string; date: string; names: string[] };

/** The shipped lists, by ecosystem. */
const SHIPPED: Partial<Record<Ecosystem, string>> = { npm: "npm.json" };

/** The lists built at refresh time, by ecosystem: the setting naming each one's source. */
const REFRESHED = { pypi: "SERVICE_PYPI_POPULAR_URL" } as const satisfies Partial<Record<Ecosystem, string>>;
type RefreshedEcosystem = keyof typeof REFRESHED;

export const popularNamesFile = (file: string): string => path.resolve(process.cwd(), "data", "popular", file);

/** Whether the ecosystem's list is built at refresh time rather than shipped. */
export const isRefreshedPopularList = (eco: Ecosystem): eco is RefreshedEcosystem => eco in REFRESHED;

/** The ecosystems whose list is built at refresh time. */
export const REFRESHED_POPULAR_ECOSYSTEMS = Object.keys(REFRESHED) as RefreshedEcosystem[];

/** The setting that names a refreshed list's source. */
export const popularNamesSetting = (eco: RefreshedEcosystem): string => REFRESHED[eco];

/** The configured source of a refreshed list, or null (unset, or an ecosystem whose list ships). */
export function popularNamesSourceUrl(eco: Ecosystem): string | null {
  return isRefreshedPopularList(eco) ? setting(REFRESHED[eco]) : null;
}

/** How the ecosystem spells one name (PEP 503 for PyPI), for looking a name up in its list. */
export function popularNameKey(eco: Ecosystem, name: string): string {
  const lower = name.trim().toLowerCase();
  return eco === "pypi" ? lower.replace(/[-_.]+/g, "-") : lower;
}

// The process's lists (server/process-wide.ts): a refresh run by the scheduler reaches the routes' bundles at once.
const shipped = processWide("popular-shipped", () => new Map<Ecosystem, PopularList>());
const refreshed = processWide("popular-refreshed", () => new Map<Ecosystem, { list: PopularList; fetchedAt: Date }>());
const refreshErrors = processWide("popular-refresh-errors", () => new Map<Ecosystem, string>());

function noList(reason: string): PopularList {
  return { names: [], info: { source: "none", date: null, count: 0, reason }, downloads: null };
}

function loadShipped(eco: Ecosystem): PopularList {
  const file = SHIPPED[eco];
  const label = OSV_ECOSYSTEM[eco];
  if (!file) return noList(`No popular-name list ships for ${label}; none is configured`);
  let parsed: ShippedPopularFile;
  try {
    parsed = JSON.parse(readFileSync(popularNamesFile(file), "utf8")) as ShippedPopularFile;
  } catch (e) {
    return noList(`The shipped ${label} popular-name list could not be read: ${(e as Error).message}`);
  }
  if (!Array.isArray(parsed.names) || typeof parsed.source !== "string") {
    return noList(`The shipped ${label} popular-name list (data/popular/${file}) is not in the expected form`);
  }
  return {
    names: parsed.names,
    info: {
      source: parsed.source,
      date: parsed.date ?? null,
      count: parsed.names.length,
      reason: null,
    },
    downloads: null,
  };
}

function refreshedList(eco: RefreshedEcosystem): PopularList {
  const label = OSV_ECOSYSTEM[eco];
  const url = popularNamesSourceUrl(eco);
  // Unset: the wording of every ecosystem without a list (the settings table names SERVICE_PYPI_POPULAR_URL).
  if (!url) return noList(`No popular-name list ships for ${label}; none is configured`);
  const held = refreshed.get(eco);
  const error = refreshErrors.get(eco);
  if (!held || !error) return held?.list ?? noList(notBuilt(label, url, error));
  return { ...held.list, info: { ...held.list.info, refreshError: `the refresh from ${url} failed: ${error}` } };
}

function notBuilt(label: string, url: string, error: string | undefined): string {
  return error
    ? `The ${label} popular-name list could not be built from ${url}: ${error}`
    : `The ${label} popular-name list has not been built from ${url} yet (the scheduled refresh or \`npm run admin -- popular-names refresh\` builds it)`;
}

// Shipped lists are read once per process on first use, like the other shipped data; they change only with a release.
function list(eco: Ecosystem): PopularList {
  if (isRefreshedPopularList(eco)) return refreshedList(eco);
  let hit = shipped.get(eco);
  if (!hit) {
    hit = loadShipped(eco);
    shipped.set(eco, hit);
  }
  return hit;
}

/** The ecosystem's popular names, most downloaded first (rank = index + 1); empty when there is no list. */
export function popularNames(eco: Ecosystem): readonly string[] {
  return list(eco).names;
}

export function popularNamesInfo(eco: Ecosystem): PopularNamesInfo {
  return { ...list(eco).info };
}

/** Each listed project's download count, when the list carries them (refreshed lists); null otherwise. */
export function popularDownloads(eco: Ecosystem): PopularDownloads | null {
  return list(eco).downloads;
}

/** When the refreshed list in memory was fetched from its source; null when none is held. */
export function popularListFetchedAt(eco: Ecosystem): Date | null {
  return refreshed.get(eco)?.fetchedAt ?? null;
}

/**
 * Puts a freshly built (or freshly read from the database) list in use. The caller rebuilds whatever it derived
 * from the old one (the typosquat index: popular-refresh.ts forgets it).
 */
export function installPopularList(eco: Ecosystem, fresh: RefreshedPopularList): void {
  if (!isRefreshedPopularList(eco)) throw new Error(`${OSV_ECOSYSTEM[eco]} popular names ship with the service`);
  const byName = new Map<string, number>();
  fresh.names.forEach((name, i) => {
    const key = popularNameKey(eco, name);
    if (!byName.has(key)) byName.set(key, fresh.downloads[i]!);
  });
  const downloads: PopularDownloads = {
    counts: fresh.downloads,
    floor: fresh.downloads.reduce((least, n) => Math.min(least, n), Infinity),
    date: fresh.date,
    countOf: (name) => byName.get(popularNameKey(eco, name)) ?? null,
  };
  const info = { source: fresh.source, date: fresh.date, count: fresh.names.length, reason: null };
  refreshed.set(eco, { list: { names: fresh.names, info, downloads }, fetchedAt: fresh.fetchedAt });
  refreshErrors.delete(eco);
}

/** Records a failed refresh: the list in use (if any) stays, and its information says why it was not replaced. */
export function notePopularRefreshFailure(eco: Ecosystem, error: string): void {
  refreshErrors.set(eco, error);
}

/** Forgets the refreshed lists held in memory (tests). */
export function resetRefreshedPopularLists(): void {
  refreshed.clear();
  refreshErrors.clear();
}

// The popular package names each ecosystem's typosquat check compares against (issue 25, item 5). They ship with
// the service under data/popular/ and are dated by their source's release; an ecosystem with no list answers with
// the reason rather than an empty list that looks like "nothing is popular".
import { readFileSync } from "node:fs";
import path from "node:path";
import { OSV_ECOSYSTEM, type Ecosystem } from "./versions/ecosystems";

export type PopularNamesInfo = {
  source: string;
  /** The source's release date (ISO 8601); null when no list is in use. */
  date: string | null;
  count: number;
  /** Why there is no list; null when there is one. */
  reason: string | null;
};

type PopularList = { names: string[]; info: PopularNamesInfo };

type ShippedPopularFile = { source: string; date: string; names: string[] };

/** The shipped lists, by ecosystem; the others have none until a source is configured. */
const SHIPPED: Partial<Record<Ecosystem, string>> = { npm: "npm.json" };

export const popularNamesFile = (file: string): string => path.resolve(process.cwd(), "data", "popular", file);

const loaded = new Map<Ecosystem, PopularList>();

function noList(reason: string): PopularList {
  return { names: [], info: { source: "none", date: null, count: 0, reason } };
}

function load(eco: Ecosystem): PopularList {
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
    info: { source: parsed.source, date: parsed.date ?? null, count: parsed.names.length, reason: null },
  };
}

// Read once per process on first use, like the other shipped data; the lists change only with a release.
function list(eco: Ecosystem): PopularList {
  let hit = loaded.get(eco);
  if (!hit) {
    hit = load(eco);
    loaded.set(eco, hit);
  }
  return hit;
}

/** The ecosystem's popular names, most downloaded first (rank = index + 1); empty when none ships. */
export function popularNames(eco: Ecosystem): readonly string[] {
  return list(eco).names;
}

export function popularNamesInfo(eco: Ecosystem): PopularNamesInfo {
  return { ...list(eco).info };
}

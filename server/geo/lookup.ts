// IP geolocation from the embedded DB-IP database. Private, reserved and unlisted addresses answer with null
// location fields and a reason, never a guess.
import { classifyIp, parseIpStrict } from "../net/ip";
import { countryName } from "../countries";
import { GEO_SOURCE, geoDatabaseDate, geoReader } from "./database";

export interface GeoResult {
  ip: string;
  version: 4 | 6;
  scope: string;
  country: { code: string; name: string | null } | null;
  region: string | null;
  district: string | null;
  city: string | null;
  postalCode: string | null;
  latitude: number | null;
  longitude: number | null;
  timezone: string | null;
  accuracy: "city" | null;
  reason: string | null;
  source: { name: string; license: string; attribution: string; attributionUrl: string; databaseDate: string };
}

const orNull = (s: string | undefined) => (s && s.trim() ? s : null);

/** Looks up a canonical IP address (validated by the caller's input schema). */
export function lookupGeo(ipInput: string): GeoResult {
  const parsed = parseIpStrict(ipInput);
  if (!parsed) throw new Error(`lookupGeo needs a valid IP address, got ${JSON.stringify(ipInput)}`);
  const { address, version } = parsed;
  const cls = classifyIp(address);
  const source = { ...GEO_SOURCE, databaseDate: geoDatabaseDate(version) };
  const empty = {
    country: null,
    region: null,
    district: null,
    city: null,
    postalCode: null,
    latitude: null,
    longitude: null,
    timezone: null,
    accuracy: null,
  };
  if (cls.scope !== "public") {
    return {
      ip: address,
      version,
      scope: cls.scope,
      ...empty,
      reason: `${cls.reason ?? "Not a public address"}: it has no geographic location.`,
      source,
    };
  }
  const rec = geoReader(version).get(address);
  if (!rec || !rec.country_code || rec.country_code === "ZZ") {
    return {
      ip: address,
      version,
      scope: cls.scope,
      ...empty,
      reason: "The address is not in the geolocation database.",
      source,
    };
  }
  return {
    ip: address,
    version,
    scope: cls.scope,
    country: { code: rec.country_code, name: countryName(rec.country_code) },
    region: orNull(rec.state1),
    district: orNull(rec.state2),
    city: orNull(rec.city),
    postalCode: orNull(rec.postcode),
    latitude: typeof rec.latitude === "number" ? Math.round(rec.latitude * 1e4) / 1e4 : null,
    longitude: typeof rec.longitude === "number" ? Math.round(rec.longitude * 1e4) / 1e4 : null,
    timezone: orNull(rec.timezone),
    accuracy: "city",
    reason: null,
    source,
  };
}

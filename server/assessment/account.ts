// The account's own history: what this user did before, and who is failing to log in. The account is the request's
// `user_id`, else its email address ("user:<id>" / "email:<address>", stored in the event's `subject` column). Two
// kinds of evidence come out of the workspace's stored assessments:
//   - the baseline, from the account's SUCCEEDED assessments of the last 90 days: countries, networks and devices
//     seen, first seen, and the last succeeded login's location, which gives the travel speed to this one;
//   - failure counters over the last hour, from FAILED login and signup attempts (`status: "failed"`): per account,
//     per address and per device, where many accounts failing from one address is credential stuffing.
// Nothing here is a query of its own: the columns below are read in the velocity statement (./velocity.ts), one
// round trip for every count an assessment needs.
import { countryInSentence } from "../countries";
import type { AccountColumns } from "../events/events";
import type { Facts } from "../rules/facts";
import { signalWeight } from "../scoring/score";
import type { IpEvidence } from "./ip-evidence";
import type { AccountSummary, AssessRequest, Signal } from "./schemas";

export const BASELINE_DAYS = 90;
/** Faster than an airliner over a distance larger than the geolocation database's city accuracy. */
export const IMPOSSIBLE_KMH = 1000;
export const MIN_TRAVEL_KM = 100;
const FAILED_LOGINS_AT = 5;
const SUCCESS_AFTER_FAILURES_AT = 3;
const STUFFING_IP_USERS_AT = 5;
const STUFFING_DEVICE_USERS_AT = 3;
/** Distinct accounts (or devices) of an address in 24 hours from which `ip.shared_egress` holds (./velocity.ts). */
export const SHARED_EGRESS_AT = 10;

/** The account an assessment is about, or null when the request names neither a user nor an email. */
export function accountSubject(userId: string | null | undefined, email: string | null): string | null {
  if (userId) return `user:${userId}`;
  return email ? `email:${email}` : null;
}

/**
 * The SQL of the account's columns, by the rows they count (the velocity statement reads each key's rows in a part of
 * its own): `account` over the account's rows of the baseline window (`accountWhere`), `device` over the device's
 * (the address's failure counters come from its counters: ./velocity.ts). `subject`, `device` are the parameter
 * references of the account and device, `hour`, `month` the lower bounds of the last hour and the last 30 days.
 */
export function accountColumns(p: { subject: string; device: string; hour: string; month: string }): {
  account: string[];
  device: string[];
} {
  // Only the event's own columns (accountColumnsOf), never its `data`: a test of a value in the stored JSON
  // decompressed all of it, several times per row of the account's 90 days.
  const ok = `NOT "failed"`;
  const failed = `"failed"`;
  const hour = `"createdAt" >= ${p.hour}`;
  const month = `"createdAt" >= ${p.month}`;
  const country = `"country"`;
  const asn = `"asn"`;
  const device = `"device"`;
  const geo = `CASE WHEN "latitude" IS NOT NULL AND "longitude" IS NOT NULL THEN jsonb_build_array("latitude", "longitude") END`;
  const epoch = (e: string) => `extract(epoch from ${e})::float8`;
  const others = `"subject" IS DISTINCT FROM ${p.subject}`;
  return {
    account: [
      `${epoch(`min("createdAt") FILTER (WHERE ${ok})`)} AS "acct_first"`,
      `${epoch(`max("createdAt") FILTER (WHERE ${ok})`)} AS "acct_last_ok"`,
      `count(*) FILTER (WHERE ${month} AND ${ok}) AS "acct_30d"`,
      `array_agg(DISTINCT ${country}) FILTER (WHERE ${ok} AND ${country} IS NOT NULL) AS "acct_countries"`,
      `array_agg(DISTINCT ${country}) FILTER (WHERE ${month} AND ${ok} AND ${country} IS NOT NULL) AS "acct_countries_30d"`,
      `array_agg(DISTINCT ${asn}) FILTER (WHERE ${ok} AND ${asn} IS NOT NULL) AS "acct_asns"`,
      `count(*) FILTER (WHERE ${device} = ${p.device} AND ${ok}) AS "acct_device_seen"`,
      `count(DISTINCT ${device}) FILTER (WHERE ${month} AND ${device} IS DISTINCT FROM ${p.device} AND ${ok}) AS "acct_other_devices_30d"`,
      // The newest succeeded login: [seconds, [latitude, longitude] or null, country, location hidden].
      `(array_agg(jsonb_build_array(${epoch(`"createdAt"`)}, ${geo}, ${country}, "hidesLocation") ORDER BY "createdAt" DESC) FILTER (WHERE ${ok} AND "kind" = 'login'))[1] AS "acct_last_login"`,
      `array_agg(${epoch(`"createdAt"`)}) FILTER (WHERE ${hour} AND ${failed}) AS "acct_failed_times"`,
    ],
    device: [
      `count(DISTINCT "subject") FILTER (WHERE ${hour} AND ${failed} AND ${others}) AS "device_failed_users_1h"`,
    ],
  };
}

/** The rows of the account's baseline window: the velocity statement's account part. */
export const accountWhere = (subject: string, since: string) => `"subject" = ${subject} AND "createdAt" >= ${since}`;

/** The event's own columns for the account's later baseline and counters, which the velocity statement reads. */
export function accountColumnsOf(req: AssessRequest, ip: IpEvidence): AccountColumns {
  return {
    kind: req.event,
    failed: req.status === "failed",
    country: ip.ip.country,
    asn: ip.ip.asn === null ? null : String(ip.ip.asn),
    latitude: ip.location?.latitude ?? null,
    longitude: ip.location?.longitude ?? null,
    hidesLocation: ip.hidesLocation,
  };
}

/** The same values as the event's `data` spells them, for the events API and backtests. */
export function accountEventData(c: AccountColumns): Record<string, unknown> {
  return {
    ...(c.failed ? { status: "failed" } : {}),
    ...(c.latitude !== null && c.longitude !== null ? { geo: [c.latitude, c.longitude] } : {}),
    ...(c.hidesLocation ? { hides_location: true } : {}),
  };
}

type Row = Record<string, unknown>;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const name = (code: string | null | undefined) => (code ? countryInSentence(code) : "an unknown country");

/** Great-circle distance in km (haversine, mean Earth radius). */
export function distanceKm(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[0] - a[0]) * rad;
  const dLon = (b[1] - a[1]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

function ago(minutes: number): string {
  if (minutes < 1) return "less than a minute";
  if (minutes < 90) return Math.round(minutes) === 1 ? "1 minute" : `${Math.round(minutes)} minutes`;
  const hours = minutes / 60;
  return hours < 48 ? `${Math.round(hours)} hours` : `${Math.round(hours / 24)} days`;
}

const thousands = (n: number) => Math.round(n).toLocaleString("en-US");

/** The travel from the account's last succeeded login to this request, or null when either location is unknown. */
function travelOf(row: Row, ip: IpEvidence, now: number): AccountSummary["travel"] {
  const last = row.acct_last_login as [number, [number, number] | null, string | null, boolean | null] | null;
  if (!last || !Array.isArray(last[1]) || !ip.location) return null;
  const km = distanceKm(last[1], [ip.location.latitude, ip.location.longitude]);
  const minutes = Math.max(0, (now - last[0] * 1000) / 60_000);
  // Two logins in the same minute: measured over a minute, so the speed stays a number.
  const kmh = km / (Math.max(minutes, 1) / 60);
  const fast = kmh > IMPOSSIBLE_KMH;
  let note: string | null = null;
  if (fast && km < MIN_TRAVEL_KM)
    note = `${thousands(km)} km is within the geolocation database's city accuracy (${MIN_TRAVEL_KM} km), so the speed says nothing.`;
  else if (fast && (ip.hidesLocation || last[3]))
    note = `${ip.hidesLocation ? "This address" : "The address of the last login"} is a VPN, Tor, relay or hosting address: where the user really was is unknown, so the speed is not evidence.`;
  return {
    from_country: last[2] ?? null,
    km: Math.round(km),
    minutes: Math.round(minutes),
    kmh: Math.round(kmh * 10) / 10,
    impossible: fast && note === null,
    note,
  };
}

/**
 * The account facts, signals and summary of one assessment from the velocity statement's account columns.
 * `subject` null (no user_id, no email): only the address and device failure counters.
 */
export function accountEvidence(a: {
  row: Row;
  subject: string | null;
  request: AssessRequest;
  ip: IpEvidence;
  now: number;
}): { facts: Facts; signals: Signal[]; account: AccountSummary | null } {
  const { row, request: req, ip } = a;
  const failed = req.status === "failed";
  const facts: Record<string, number | boolean> = {};
  const signals: Signal[] = [];
  const add = (code: Parameters<typeof signalWeight>[0], reason: string, evidence = ["workspace-events"]) =>
    signals.push({ code, weight: signalWeight(code, req.event), reason, evidence });

  const ipUsers = Number(row.ip_failed_users_1h ?? 0) + (failed && a.subject ? 1 : 0);
  facts["ip.failed_logins_1h"] = Number(row.ip_failed_1h ?? 0) + (failed ? 1 : 0);
  facts["ip.failed_users_1h"] = ipUsers;
  // Shared egress: how many of the address's accounts of the day failed (the velocity read counts the accounts).
  const failedUsers24h = Number(row.ip_failed_users_24h ?? 0) + (failed && a.subject ? 1 : 0);
  const users24h = Number(row.ip_users_24h ?? 0) + (a.subject ? 1 : 0);
  facts["ip.failed_users_24h"] = failedUsers24h;
  if (users24h > 0) facts["ip.failed_share_24h"] = Math.min(1, failedUsers24h / users24h);
  // ... and how many of them were labelled fraud there (outcome labels, resolved review cases: ./outcomes.ts).
  const fraudUsers24h = Number(row.ip_fraud_users_24h ?? 0);
  facts["ip.fraud_users_24h"] = fraudUsers24h;
  if (users24h > 0) facts["ip.fraud_share_24h"] = Math.min(1, fraudUsers24h / users24h);
  const devices24h = Number(row.ip_devices_24h ?? 0) + (req.device_id ? 1 : 0);
  if (users24h >= SHARED_EGRESS_AT || devices24h >= SHARED_EGRESS_AT) {
    const accounts = `${users24h} account${users24h === 1 ? "" : "s"}`;
    const devices = `${devices24h} device${devices24h === 1 ? "" : "s"}`;
    const many =
      users24h >= SHARED_EGRESS_AT
        ? `${accounts}${devices24h ? ` and ${devices}` : ""}`
        : `${devices}${users24h ? ` and ${accounts}` : ""}`;
    const failedThere = failedUsers24h ? `; ${failedUsers24h} of them failed there` : "";
    const fraudThere = fraudUsers24h ? `; ${fraudUsers24h} of them were labelled fraud there` : "";
    add(
      "ip_shared_egress",
      `${ip.ip.address} was used by ${many} in the last 24 hours${failedThere}${fraudThere}: an address shared by many (a NAT, office, mobile carrier or proxy egress). Evidence, not a verdict: weigh it with the account's own history.`,
    );
  }
  if (ipUsers >= STUFFING_IP_USERS_AT)
    add(
      "ip_credential_stuffing",
      `${ipUsers} different accounts failed to log in from ${ip.ip.address} in the last hour: credential stuffing (leaked passwords tried account by account). Review the logins from it; a rule on ip.failed_users_1h challenges or refuses them outright.`,
    );
  const deviceId = req.device_id ?? null;
  if (deviceId) {
    const deviceUsers = Number(row.device_failed_users_1h ?? 0) + (failed && a.subject ? 1 : 0);
    facts["device.failed_users_1h"] = deviceUsers;
    if (deviceUsers >= STUFFING_DEVICE_USERS_AT)
      add(
        "device_credential_stuffing",
        `${deviceUsers} different accounts failed to log in from this device in the last hour: one machine trying many accounts. Review its logins; a rule on device.failed_users_1h challenges or refuses them outright.`,
      );
  }
  if (!a.subject) return { facts: facts as Facts, signals, account: null };

  const first = num(row.acct_first);
  const seenBefore = first !== null;
  const country = ip.ip.country;
  const asn = ip.ip.asn;
  const countries = strings(row.acct_countries);
  const newCountry = country ? seenBefore && !countries.includes(country) : null;
  const newAsn = asn !== null ? seenBefore && !strings(row.acct_asns).includes(String(asn)) : null;
  const newDevice = deviceId ? seenBefore && Number(row.acct_device_seen ?? 0) === 0 : null;
  const countries30 = new Set(strings(row.acct_countries_30d));
  if (country) countries30.add(country);
  const devices30 = Number(row.acct_other_devices_30d ?? 0) + (deviceId ? 1 : 0);
  const lastOk = num(row.acct_last_ok);
  const failedTimes = (Array.isArray(row.acct_failed_times) ? row.acct_failed_times : []).map(Number);
  const failedSinceOk = failedTimes.filter((t) => lastOk === null || t > lastOk).length;
  const failed1h = failedTimes.length + (failed ? 1 : 0);
  const successAfterFailures = !failed && failedSinceOk >= SUCCESS_AFTER_FAILURES_AT;
  const travel = seenBefore ? travelOf(row, ip, a.now) : null;

  facts["user.seen_before"] = seenBefore;
  if (first !== null) facts["user.first_seen_days"] = Math.floor((a.now - first * 1000) / 86_400_000);
  facts["user.assessments_30d"] = Number(row.acct_30d ?? 0);
  if (newCountry !== null) facts["user.new_country"] = newCountry;
  if (newAsn !== null) facts["user.new_asn"] = newAsn;
  if (newDevice !== null) facts["user.new_device"] = newDevice;
  facts["user.countries_30d"] = countries30.size;
  if (deviceId) facts["user.devices_30d"] = devices30;
  if (travel) {
    facts["user.travel_kmh"] = travel.kmh;
    facts["user.impossible_travel"] = travel.impossible;
  }
  facts["user.failed_logins_1h"] = failed1h;
  facts["user.success_after_failures"] = successAfterFailures;

  const what = req.event === "login" || req.event === "signup" ? req.event : "assessment";
  if (newCountry) {
    const before = countries.slice(0, 3).map(name).join(", ");
    add(
      "user_new_country",
      `First ${what} from ${name(country)} for this account in ${BASELINE_DAYS} days; its earlier ones came from ${before}. Confirm it is the account's owner.`,
    );
  }
  if (travel?.impossible)
    add(
      "user_impossible_travel",
      `${thousands(travel.km)} km from its login ${ago(travel.minutes)} earlier in ${name(travel.from_country)}: ${thousands(travel.kmh)} km/h, faster than any flight. Someone else is probably using these credentials; ask for a second factor.`,
      ["workspace-events", "DB-IP IP to City Lite"],
    );
  if (newAsn)
    add(
      "user_new_asn",
      `First ${what} from network AS${asn} for this account in ${BASELINE_DAYS} days: a new provider or place.`,
    );
  if (newDevice)
    add("user_new_device", `First time this account is seen on this device (device_id) in ${BASELINE_DAYS} days.`);
  if (failed1h >= FAILED_LOGINS_AT)
    add(
      "user_failed_logins",
      `${failed1h} failed attempts for this account in the last hour: someone may be guessing its password. Slow it down or ask for a second factor.`,
    );
  if (successAfterFailures)
    add(
      "user_success_after_failures",
      `This attempt succeeded after ${failedSinceOk} failed ones since the account's last success: how a guessed or stuffed password looks. Ask for a second factor.`,
    );

  return {
    facts: facts as Facts,
    signals,
    account: {
      key: req.user_id ? "user_id" : "email",
      seen_before: seenBefore,
      first_seen_days: first === null ? null : Math.floor((a.now - first * 1000) / 86_400_000),
      assessments_30d: Number(row.acct_30d ?? 0),
      new_country: newCountry,
      new_asn: newAsn,
      new_device: newDevice,
      countries_30d: countries30.size,
      failed_logins_1h: failed1h,
      success_after_failures: successAfterFailures,
      travel,
    },
  };
}

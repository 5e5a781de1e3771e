// Consistency checks of device signals: does the browser's story hang together? A time zone far from the IP's, a
// user agent that disagrees with its own client hints or platform, or no languages at all are marks of spoofing
// tools, emulators and headless browsers.
import { countryInSentence } from "../countries";
import { lookupGeo } from "../geo/lookup";
import { languageName, languagesOf, primaryLanguage } from "./country-languages";
import { parseIpStrict } from "../net/ip";
import type { DeviceDiagnosis, DeviceSignals } from "./schemas";

type Check = DeviceDiagnosis["consistency"][number];

/** UTC offset of an IANA zone now, in minutes; null for an unknown zone. */
export function zoneOffsetMinutes(zone: string, at = new Date()): number | null {
  try {
    const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" }).formatToParts(at);
    const name = parts.find((p) => p.type === "timeZoneName")?.value ?? "";
    const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
    if (!m) return name === "GMT" ? 0 : null;
    return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
  } catch {
    return null;
  }
}

const fmt = (min: number) =>
  `UTC${min < 0 ? "-" : "+"}${Math.floor(Math.abs(min) / 60)}${Math.abs(min) % 60 ? `:${String(Math.abs(min) % 60).padStart(2, "0")}` : ""}`;

/** Hours a local offset may differ from the solar offset (longitude / 15): zones are wide and some run far ahead (China, Spain). */
const TZ_TOLERANCE_HOURS = 3;

function timezoneCheck(d: DeviceSignals, ip: string | null): Check {
  const check = "timezone_vs_ip" as const;
  if (!ip || !parseIpStrict(ip)) return { check, result: "not_checked", reason: "No IP address was given." };
  if (!d.timezone) return { check, result: "not_checked", reason: "The browser sent no time zone." };
  const geo = lookupGeo(ip);
  const mine = zoneOffsetMinutes(d.timezone);
  if (mine === null) return { check, result: "not_checked", reason: `Unknown time zone ${d.timezone}.` };
  const where = [geo.city, geo.country?.name ?? geo.country?.code].filter(Boolean).join(", ");
  // The geolocation database has coordinates but no zone: compare with the solar offset of the IP's longitude.
  const theirs = geo.timezone
    ? zoneOffsetMinutes(geo.timezone)
    : geo.longitude !== null
      ? Math.round((geo.longitude / 15) * 60)
      : null;
  if (theirs === null)
    return { check, result: "not_checked", reason: geo.reason ?? "The IP address has no known location." };
  const limit = geo.timezone ? 0 : TZ_TOLERANCE_HOURS * 60;
  if (Math.abs(mine - theirs) <= limit)
    return {
      check,
      result: "consistent",
      reason: `The browser's time zone ${d.timezone} (${fmt(mine)}) fits the IP's location (${where || "known"}).`,
    };
  // A solar offset is no time zone (Ann Arbor's longitude gives UTC-5:35, its clocks UTC-5): said as what it is, to
  // the hour.
  const theirsInWords = geo.timezone
    ? fmt(theirs)
    : `by its longitude, local time near ${fmt(Math.round(theirs / 60) * 60)}, more than ${TZ_TOLERANCE_HOURS} hours from the browser's`;
  return {
    check,
    result: "inconsistent",
    reason: `The browser says ${d.timezone} (${fmt(mine)}) but the IP is located in ${where || "another region"} (${theirsInWords}): a proxy, VPN or spoofed time zone.`,
  };
}

const OS_IN_UA: [RegExp, string[]][] = [
  [/Windows NT/, ["Windows"]],
  [/Android/, ["Android", "Linux"]],
  [/CrOS/, ["Chrome OS", "ChromeOS"]],
  [/iPhone|iPad|iPod/, ["iOS"]],
  [/Mac OS X|Macintosh/, ["macOS"]],
  [/Linux|X11/, ["Linux"]],
];

const osOf = (ua: string) => OS_IN_UA.find(([re]) => re.test(ua))?.[1] ?? null;

function clientHintsCheck(d: DeviceSignals): Check {
  const check = "user_agent_vs_client_hints" as const;
  const ua = d.user_agent ?? "";
  const ch = d.client_hints;
  if (!ua || !ch)
    return { check, result: "not_checked", reason: "No client hints (only Chromium browsers send them)." };
  const problems: string[] = [];
  if (!/Chrome\/|Chromium\/|Edg\//.test(ua))
    problems.push("client hints come only from Chromium browsers, but the user agent is not one");
  const chrome = /(?:Chrome|Chromium)\/(\d+)/.exec(ua)?.[1];
  const brandVersions = (ch.brands ?? [])
    .filter((b) => /Chrom|Edge|Opera|Brave/i.test(b.brand))
    .map((b) => b.version.split(".")[0]);
  if (chrome && brandVersions.length && !brandVersions.includes(chrome))
    problems.push(`the user agent says Chrome ${chrome} but the brands say ${brandVersions.join("/")}`);
  const os = osOf(ua);
  if (ch.platform && os && !os.includes(ch.platform))
    problems.push(`the user agent says ${os[0]} but the platform hint says ${ch.platform}`);
  if (ch.mobile !== undefined && ch.mobile !== /Mobile|Android.*Mobile|iPhone/.test(ua) && !/iPad|Tablet/.test(ua))
    problems.push(`the mobile hint (${ch.mobile}) disagrees with the user agent`);
  return problems.length
    ? {
        check,
        result: "inconsistent",
        reason: `The user agent disagrees with the browser's client hints: ${problems.join("; ")}.`,
      }
    : {
        check,
        result: "consistent",
        reason: "The user agent matches the client hints (brand, version, platform, mobile).",
      };
}

const PLATFORM_OS: [RegExp, string][] = [
  [/^Win/, "Windows"],
  [/^Mac/, "macOS"],
  [/^(iPhone|iPad|iPod)/, "iOS"],
  [/^Linux|^Android/, "Linux"],
  [/^CrOS/, "Chrome OS"],
];

function platformCheck(d: DeviceSignals): Check {
  const check = "user_agent_vs_platform" as const;
  if (!d.user_agent || !d.platform)
    return { check, result: "not_checked", reason: "The user agent or navigator.platform is missing." };
  const fromPlatform = PLATFORM_OS.find(([re]) => re.test(d.platform!))?.[1];
  const fromUa = osOf(d.user_agent);
  if (!fromPlatform || !fromUa) return { check, result: "not_checked", reason: `Unrecognised platform ${d.platform}.` };
  // Android reports a Linux platform; iPadOS reports MacIntel in desktop mode.
  const ok =
    fromUa.includes(fromPlatform) ||
    (fromPlatform === "Linux" && fromUa.includes("Android")) ||
    (fromPlatform === "macOS" && fromUa.includes("iOS")) ||
    (fromPlatform === "Linux" && fromUa.includes("Chrome OS"));
  return ok
    ? { check, result: "consistent", reason: `navigator.platform ${d.platform} matches the user agent (${fromUa[0]}).` }
    : {
        check,
        result: "inconsistent",
        reason: `navigator.platform is ${d.platform} but the user agent says ${fromUa[0]}: a user-agent switcher or emulator.`,
      };
}

function languagesCheck(d: DeviceSignals): Check {
  const check = "languages" as const;
  if (d.languages === undefined) return { check, result: "not_checked", reason: "The browser sent no language list." };
  if (d.languages.length === 0)
    return {
      check,
      result: "inconsistent",
      reason: "navigator.languages is empty, as in headless and automated browsers.",
    };
  return { check, result: "consistent", reason: `Languages: ${d.languages.slice(0, 5).join(", ")}.` };
}

const list = (xs: string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(", ")} or ${xs.at(-1)}` : (xs[0] ?? ""));

/**
 * The browser's languages against the IP address's country (./country-languages.ts): at least one of them is spoken
 * there, or none is. Checked only when the browser sent languages and the address has a country.
 */
function languageCheck(d: DeviceSignals, ip: string | null): Check {
  const check = "language_vs_ip" as const;
  if (!ip || !parseIpStrict(ip)) return { check, result: "not_checked", reason: "No IP address was given." };
  const tags = (d.languages ?? []).filter((t) => primaryLanguage(t) !== null);
  if (!tags.length) return { check, result: "not_checked", reason: "The browser sent no language." };
  const geo = lookupGeo(ip);
  const country = geo.country?.code;
  const spoken = country ? languagesOf(country) : new Set<string>();
  if (!country || !spoken.size)
    return { check, result: "not_checked", reason: geo.reason ?? "The IP address has no known country." };
  const where = countryInSentence(country);
  const shown = tags.slice(0, 5).join(", ");
  const fits = tags.find((t) => spoken.has(primaryLanguage(t)!));
  if (fits)
    return {
      check,
      result: "consistent",
      reason: `The browser's languages (${shown}) include ${languageName(primaryLanguage(fits)!)}, spoken in ${where}.`,
    };
  return {
    check,
    result: "inconsistent",
    reason: `The browser's languages (${shown}) include none spoken in ${where} (${list([...spoken].slice(0, 4).map(languageName))}): a proxy or VPN in another country, or a traveller or expatriate.`,
  };
}

export function consistencyChecks(d: DeviceSignals, ip: string | null): Check[] {
  return [timezoneCheck(d, ip), clientHintsCheck(d), platformCheck(d), languagesCheck(d), languageCheck(d, ip)];
}

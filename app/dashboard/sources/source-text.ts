// Words for data sources, shared by the dashboard's sources page and the landing page: areas, ages and cadences.
export type { DataSource } from "../../../server/feeds/public-status";

export const SOURCE_AREAS = [
  { id: "ip", label: "IP reputation and privacy" },
  { id: "network", label: "Networks" },
  { id: "email", label: "Email" },
  { id: "domain", label: "Domains" },
  { id: "vulnerabilities", label: "Vulnerabilities" },
  { id: "other", label: "Other" },
] as const;

export type SourceArea = (typeof SOURCE_AREAS)[number]["id"];

const AREA_PREFIXES: [string, SourceArea][] = [
  ["tor-", "ip"],
  ["spamhaus-", "ip"],
  ["cloud-", "ip"],
  ["vpn-", "ip"],
  ["relay-", "ip"],
  ["crawler-", "ip"],
  ["monitor-", "ip"],
  ["platform-", "ip"],
  ["hosting-", "ip"],
  ["datacenter-", "ip"],
  ["scanners-", "ip"],
  ["asn-", "network"],
  ["rdap-", "domain"],
  ["public-suffix", "domain"],
  ["disposable-", "email"],
  ["free-email", "email"],
  ["role-", "email"],
  ["kev", "vulnerabilities"],
];

export const sourceArea = (name: string): SourceArea => AREA_PREFIXES.find(([p]) => name.startsWith(p))?.[1] ?? "other";

/** "3 days", "5 hours", "12 minutes". */
export function ageText(seconds: number | null): string {
  if (seconds === null) return "unknown";
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (seconds >= 86_400 * 365) return plural(Math.floor(seconds / (86_400 * 365)), "year");
  if (seconds >= 86_400 * 60) return plural(Math.floor(seconds / (86_400 * 30)), "month");
  if (seconds >= 86_400) return plural(Math.floor(seconds / 86_400), "day");
  if (seconds >= 3600) return plural(Math.floor(seconds / 3600), "hour");
  return plural(Math.max(1, Math.floor(seconds / 60)), "minute");
}

/** "hourly", "daily", "weekly", or "every 6 hours". */
export function cadenceText(seconds: number | null): string {
  if (seconds === 3600) return "hourly";
  if (seconds === 86_400) return "daily";
  if (seconds === 604_800) return "weekly";
  return seconds ? `every ${ageText(seconds)}` : "";
}

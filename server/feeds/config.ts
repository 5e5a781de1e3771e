// Feed settings, read at call time so tests can point a feed at a local server.
import path from "node:path";
import { setting, settingOf } from "../env";

/** The variable of one feed's setting: `SERVICE_FEED_<NAME>_<SUFFIX>`, NAME upper-cased with other characters as "_". */
export const feedSettingName = (feedName: string, suffix: string): string =>
  `SERVICE_FEED_${feedInstance(feedName)}_${suffix}`;

/** NAME of a feed's settings (`SERVICE_FEED_<NAME>_URL`): its name upper-cased, other characters as "_". */
export const feedInstance = (feedName: string): string => feedName.toUpperCase().replace(/[^A-Z0-9]/g, "_");

/** `SERVICE_FEED_<NAME>_URL` (name upper-cased, "-" as "_"): the live source of one feed; "off" disables refresh. */
export function feedSourceUrl(feedName: string, fallback: string | null): string | null {
  const value = settingOf("SERVICE_FEED_<NAME>_URL", feedInstance(feedName));
  if (value === "off") return null;
  return value || fallback;
}

/** Download timeout of one feed refresh. */
export const feedTimeoutMs = (): number => setting("SERVICE_FEED_TIMEOUT_MS");

/** Largest payload a refresh accepts, so a wrong URL cannot exhaust memory. */
export const feedMaxBytes = (): number => setting("SERVICE_FEED_MAX_BYTES");

/** How often a running process looks for a snapshot refreshed by another process (the CLI, another instance). */
export const feedRecheckMs = (): number => setting("SERVICE_FEED_RECHECK_SECONDS") * 1000;

/** Folder of the shipped snapshots and their `.meta.json` sidecars. */
export const shippedFeedFile = (file: string): string => path.resolve(process.cwd(), "data", "feeds", file);

/** A file of an installed npm package that ships data (resolved from the project root, like `next start`). */
export const packageFile = (...parts: string[]): string => path.resolve(process.cwd(), "node_modules", ...parts);

/** False when `SERVICE_FEED_REFRESH=off` switches scheduled refreshes off for every feed (the CLI still refreshes). */
export const scheduledFeedRefreshEnabled = (): boolean => setting("SERVICE_FEED_REFRESH");

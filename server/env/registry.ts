// The registry of every setting the server, the app, the scripts and the tests read (issue 23): one entry per
// variable with its kind, default, meaning and group. Typed accessors read the environment at call time; the
// README's settings table (scripts/settings-table.ts) and the start-up check are both built from it.
import { assessmentRulesAndWeights, linksToScans, webhooksAndBulkJobs } from "./features";
import { ConfigurationError, type Setting } from "./kinds";
import { feeds, packageVulnerabilities, targetsAndOnlineCheck, upstreams } from "./lookups";
import { operations, probeAgentAndTests } from "./operate";
import { billing, service, signInAndSecrets } from "./service";
import { fixedSettingValues, rawValue, variableNames } from "./source";

/** Every setting, in the README's order. */
export const SETTINGS = {
  ...service,
  ...billing,
  ...signInAndSecrets,
  ...feeds,
  ...upstreams,
  ...targetsAndOnlineCheck,
  ...packageVulnerabilities,
  ...webhooksAndBulkJobs,
  ...assessmentRulesAndWeights,
  ...linksToScans,
  ...operations,
  ...probeAgentAndTests,
};

type Settings = typeof SETTINGS;
export type SettingName = keyof Settings;
/** A setting with one variable per instance (a feed, a plan, a captcha provider): `SERVICE_FEED_<NAME>_URL`. */
export type PatternName = Extract<SettingName, `${string}<${string}`>;
export type SettingValue<K extends SettingName> = ReturnType<Settings[K]["read"]>;

const PLACEHOLDER = /<[A-Z]+>/;

/**
 * The setting's value now; throws ConfigurationError naming the variable when it is invalid. Once the environment is
 * fixed (server/env/source.ts fixEnvironment), a number, word or flag is parsed once and kept; lists and other objects
 * are parsed on each read, so no caller can change another's.
 */
export function setting<K extends Exclude<SettingName, PatternName>>(name: K): SettingValue<K> {
  const kept = fixedSettingValues();
  if (kept?.has(name)) return kept.get(name) as SettingValue<K>;
  const entry = SETTINGS[name] as Setting<SettingValue<K>>;
  const value = entry.read(name, rawValue(name));
  if (kept && (value === null || typeof value !== "object")) kept.set(name, value);
  return value;
}

/** The variable of one instance of a patterned setting: ("SERVICE_FEED_<NAME>_URL", "TOR_EXITS"). */
export const variableOf = (pattern: PatternName, instance: string): string => pattern.replace(PLACEHOLDER, instance);

/** One instance's value of a patterned setting; `fallback` is its default when the setting's varies per use. */
export function settingOf<K extends PatternName>(
  pattern: K,
  instance: string,
  fallback?: SettingValue<K>,
): SettingValue<K> {
  const entry = SETTINGS[pattern] as Setting<SettingValue<K>>;
  const name = variableOf(pattern, instance);
  return entry.read(name, rawValue(name), fallback);
}

function variablesOf(pattern: string): string[] {
  const [before, after] = pattern.split(PLACEHOLDER);
  return variableNames().filter(
    (n) => n.length > before!.length + after!.length && n.startsWith(before!) && n.endsWith(after!),
  );
}

/**
 * Every invalid setting the server reads, one line each naming the variable (empty when all are valid). Settings
 * read only by scripts are left to them, and so are per-use defaults (a feed's cadence), which their module checks.
 */
export function validateSettings(): string[] {
  const problems = new Set<string>();
  for (const [key, entry] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    if (entry.outside || entry.perUse) continue;
    for (const name of PLACEHOLDER.test(key) ? variablesOf(key) : [key]) {
      try {
        entry.read(name, rawValue(name));
      } catch (err) {
        if (!(err instanceof ConfigurationError)) throw err;
        problems.add(err.message);
      }
    }
  }
  return [...problems];
}

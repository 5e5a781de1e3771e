// The service's settings, read from the environment in one place (issue 23), in the manner of @t3-oss/env-core:
// every variable named, typed, defaulted and documented once in the registry (server/env/), and nothing else in
// server/ or app/ touches process.env. Values are read at call time, not snapshotted at import, so tests may change
// process.env between cases; a built server, once started, reads each variable once (server/env/source.ts). An
// invalid value fails loudly, naming the variable and what it accepts.
import { parseNumber, type NumberBounds } from "./env/kinds";
import { setting } from "./env/registry";
import { nodeEnv, rawValue } from "./env/source";

export {
  parseDnsServer,
  parseProbeLocation,
  parseRdapServer,
  type DnsServer,
  type ProbeLocation,
} from "./env/addresses";
export { ConfigurationError, type NumberBounds, type Setting } from "./env/kinds";
export { SCHEMA_NAME } from "./env/service";
export {
  SETTINGS,
  setting,
  settingOf,
  validateSettings,
  variableOf,
  type PatternName,
  type SettingName,
  type SettingValue,
} from "./env/registry";
export {
  adoptNpmConfigRegistry,
  configureNextAuthEnvironment,
  fixEnvironment,
  nodeEnv,
  npmConfigRegistry,
} from "./env/source";

/**
 * The variable's value as a number within bounds, the fallback when unset or empty; throws ConfigurationError.
 * For a variable outside the registry (tests); the service's settings are read with `setting`.
 */
export function numberSetting(name: string, fallback: number, bounds: NumberBounds = {}): number {
  return parseNumber(name, rawValue(name), fallback, bounds);
}

/**
 * SERVICE_UPSTREAM_TIMEOUT_MS (default 5000): the longest a lookup waits for any one upstream (a resolver over all its
 * servers, an RDAP server, a package registry, a target host, certificate transparency) before it answers without it
 * or 503 UPSTREAM_UNAVAILABLE with Retry-After (issue 22, item 19). Each upstream's own timeout setting, when set,
 * overrides it for that upstream.
 */
export const upstreamTimeoutMs = (): number => setting("SERVICE_UPSTREAM_TIMEOUT_MS");

/**
 * Whether the operator declared a production deployment (SERVICE_ENV=production). NODE_ENV cannot tell: `next
 * start` always runs with NODE_ENV=production, also for a newcomer's local `npm start` and for test servers.
 * `npm start` sets SERVICE_ENV=production itself when the operator started it with NODE_ENV=production.
 */
export const isProductionDeployment = (): boolean => setting("SERVICE_ENV")?.toLowerCase() === "production";

/** Vitest sets NODE_ENV=test; logs are silent there and migrations are not announced. */
export const isTestRun = (): boolean => nodeEnv() === "test";

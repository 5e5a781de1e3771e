// The one place that touches process.env (issue 23): settings are read here at call time, so tests may change
// process.env between cases, and the few values the service hands to libraries that read the environment
// themselves (next-auth, npm) are written here.

/**
 * Once fixed (fixEnvironment): the variables read since, and the settings parsed from them (server/env/registry.ts).
 * Each read of process.env crosses into Node's C++ and copies the text: with the parse that follows, reading settings
 * was 1.4 % of an assessment's CPU in the production server (docs/benchmarks.md). Kept on globalThis, as the process
 * state is (server/operate/state.ts): the start-up and the routes are separate bundles, each with its own copy of
 * this module, and the start-up's call must reach the routes' reads.
 */
interface Fixed {
  raw: Map<string, string | undefined>;
  values: Map<string, unknown>;
}
const g = globalThis as unknown as { __serviceFixedEnvironment?: Fixed };

/** The variable's raw text, as the environment holds it now (once fixed: as it was at its first read since). */
export function rawValue(name: string): string | undefined {
  const fixed = g.__serviceFixedEnvironment;
  if (fixed === undefined) return process.env[name];
  if (fixed.raw.has(name)) return fixed.raw.get(name);
  const value = process.env[name];
  fixed.raw.set(name, value);
  return value;
}

/**
 * From now on each variable is read from the environment once. The production server's start-up calls it once it
 * has started (server/startup/index.ts): nothing changes its environment after that but the writers below, which
 * forget what they change. Never under Vitest or `next dev`, where tests and .env files change variables at run time.
 */
export function fixEnvironment(): void {
  g.__serviceFixedEnvironment ??= { raw: new Map(), values: new Map() };
}

/** The settings' values kept since the environment was fixed, by variable; undefined while it is not. */
export const fixedSettingValues = (): Map<string, unknown> | undefined => g.__serviceFixedEnvironment?.values;

/** Writes a variable, and forgets what was kept of it if the environment is fixed. */
function write(name: string, value: string): void {
  process.env[name] = value;
  g.__serviceFixedEnvironment?.raw.delete(name);
  g.__serviceFixedEnvironment?.values.delete(name);
}

/** The names of every variable set now (to find the instances of a patterned setting such as a feed's URL). */
export const variableNames = (): string[] => Object.keys(process.env);

/** NODE_ENV: the build Next.js runs (`development` under next dev, `production` under next start, `test` in Vitest). */
export const nodeEnv = (): string | undefined => process.env.NODE_ENV;

/** npm's own registry setting, which npm passes to the scripts it runs (not a setting of ours). */
export const npmConfigRegistry = (): string | null => process.env.npm_config_registry?.trim() || null;

/** Remembers npm's registry for npmConfigRegistry when the server was not started by npm (it asked npm once). */
export function adoptNpmConfigRegistry(url: string): void {
  write("npm_config_registry", url);
}

/**
 * next-auth reads NEXTAUTH_URL and AUTH_TRUST_HOST from the environment itself: the configured origin becomes its
 * URL, and with none it trusts the request's Host, so the app works at whatever address it is reached by.
 */
export function configureNextAuthEnvironment(origin: string | null): void {
  if (!process.env.NEXTAUTH_URL && origin) write("NEXTAUTH_URL", origin);
  if (!process.env.NEXTAUTH_URL && process.env.AUTH_TRUST_HOST === undefined) write("AUTH_TRUST_HOST", "true");
}

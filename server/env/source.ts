// The one place that touches process.env (issue 23): settings are read here at call time, so tests may change
// process.env between cases, and the few values the service hands to libraries that read the environment
// themselves (next-auth, npm) are written here.

/**
 * The variables read since the environment was fixed (fixEnvironment), or null while every read goes to
 * process.env. Each read of process.env crosses into Node's C++ and copies the text: with the parse that follows,
 * reading settings was 1.4 % of an assessment's CPU in the production server (docs/benchmarks.md).
 */
let fixed: Map<string, string | undefined> | null = null;

/** The variable's raw text, as the environment holds it now (once fixed: as it was at its first read since). */
export function rawValue(name: string): string | undefined {
  if (fixed === null) return process.env[name];
  if (fixed.has(name)) return fixed.get(name);
  const value = process.env[name];
  fixed.set(name, value);
  return value;
}

/**
 * From now on each variable is read from the environment once. The production server's start-up calls it once it
 * has started (server/startup/index.ts): nothing changes its environment after that but the writers below, which
 * forget what they change. Never under Vitest or `next dev`, where tests and .env files change variables at run time.
 */
export function fixEnvironment(): void {
  fixed ??= new Map();
}

/** Whether the environment is fixed (fixEnvironment): then a setting's value may be kept (server/env/registry.ts). */
export const environmentFixed = (): boolean => fixed !== null;

/** Writes a variable, and forgets it if the environment is fixed. */
function write(name: string, value: string): void {
  process.env[name] = value;
  fixed?.delete(name);
  for (const forget of forgetters) forget(name);
}

const forgetters: ((name: string) => void)[] = [];
/** `forget` is told the name of each variable this module writes (the registry forgets its kept value). */
export function onVariableWritten(forget: (name: string) => void): void {
  forgetters.push(forget);
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

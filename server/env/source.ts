// The one place that touches process.env (issue 23): settings are read here at call time, so tests may change
// process.env between cases, and the few values the service hands to libraries that read the environment
// themselves (next-auth, npm) are written here.

/** The variable's raw text, as the environment holds it now. */
export const rawValue = (name: string): string | undefined => process.env[name];

/** The names of every variable set now (to find the instances of a patterned setting such as a feed's URL). */
export const variableNames = (): string[] => Object.keys(process.env);

/** NODE_ENV: the build Next.js runs (`development` under next dev, `production` under next start, `test` in Vitest). */
export const nodeEnv = (): string | undefined => process.env.NODE_ENV;

/** npm's own registry setting, which npm passes to the scripts it runs (not a setting of ours). */
export const npmConfigRegistry = (): string | null => process.env.npm_config_registry?.trim() || null;

/** Remembers npm's registry for npmConfigRegistry when the server was not started by npm (it asked npm once). */
export function adoptNpmConfigRegistry(url: string): void {
  process.env.npm_config_registry = url;
}

/**
 * next-auth reads NEXTAUTH_URL and AUTH_TRUST_HOST from the environment itself: the configured origin becomes its
 * URL, and with none it trusts the request's Host, so the app works at whatever address it is reached by.
 */
export function configureNextAuthEnvironment(origin: string | null): void {
  if (!process.env.NEXTAUTH_URL && origin) process.env.NEXTAUTH_URL = origin;
  if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "true";
}

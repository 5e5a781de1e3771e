// Start-up check of every setting: the registry (server/env/) reads each variable the server uses once, so an
// invalid value stops the server at start with the variable's name, not on the first request that reads it.
// Settings whose default differs per use (each feed's cadence) are read here through their module, which knows it.
import { oidcConfig } from "../auth/config";
import { ConfigurationError, validateSettings } from "../env";
import { feedCadenceSettings } from "../feeds/schedule";

/** Every configuration problem found, one line each naming the variable; empty when all settings are valid. */
export function configurationProblems(): string[] {
  const problems = validateSettings();
  try {
    feedCadenceSettings();
  } catch (err) {
    // Other failures (a feed list that cannot load) are reported where they are used.
    if (err instanceof ConfigurationError) problems.push(err.message);
  }
  // Settings that stand or fall together: a half-configured OpenID Connect provider would start a server whose
  // sign-in page shows the operator's error to every visitor (start.mjs takes the issuer alone as configured).
  try {
    oidcConfig();
  } catch (err) {
    problems.push((err as Error).message);
  }
  return [...new Set(problems)];
}

/** Throws one ConfigurationError listing every invalid setting. */
export function assertValidConfiguration(): void {
  const problems = configurationProblems();
  if (problems.length) throw new ConfigurationError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
}

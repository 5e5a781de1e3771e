// Start-up check of every setting: the registry (server/env/) reads each variable the server uses once, so an
// invalid value stops the server at start with the variable's name, not on the first request that reads it.
// Settings whose default differs per use (each feed's cadence) are read here through their module, which knows it.
import { oidcConfig } from "../auth/config";
import { ConfigurationError, setting, validateSettings } from "../env";
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
  const metrics = metricsPortProblem();
  if (metrics) problems.push(metrics);
  return [...new Set(problems)];
}

const WILDCARD = new Set(["0.0.0.0", "::", ""]);

/** The metrics listener on the server's own port and address: it opened first, and the server then took itself for another. */
function metricsPortProblem(): string | null {
  try {
    const port = setting("PORT");
    const metricsPort = setting("SERVICE_METRICS_PORT");
    if (metricsPort === null || metricsPort === 0 || metricsPort !== port) return null;
    const host = setting("HOST");
    const metricsHost = setting("SERVICE_METRICS_HOST");
    if (host !== metricsHost && !WILDCARD.has(host) && !WILDCARD.has(metricsHost)) return null;
    return `SERVICE_METRICS_PORT=${metricsPort} is the server's own port (PORT): give the metrics listener another port, or leave it unset to serve /metrics on the main port.`;
  } catch {
    return null; // an invalid value of one of them is reported by the registry's check above
  }
}

/** Throws one ConfigurationError listing every invalid setting. */
export function assertValidConfiguration(): void {
  const problems = configurationProblems();
  if (problems.length) throw new ConfigurationError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
}

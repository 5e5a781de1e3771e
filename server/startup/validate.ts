// Start-up check of every setting: the registry (server/env/) reads each variable the server uses once, so an
// invalid value stops the server at start with the variable's name, not on the first request that reads it.
// Settings whose default differs per use (each feed's cadence) are read here through their module, which knows it.
import { isIP } from "node:net";
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

/** The wildcard addresses, in canonical form (IPv4-mapped "::ffff:0.0.0.0" becomes "0.0.0.0" first). */
const WILDCARD = new Set(["0.0.0.0", "::", ""]);

/**
 * The addresses a listen on `host` may take, or "any" for a wildcard: compared as text, HOST=localhost and
 * SERVICE_METRICS_HOST=127.0.0.1 on one port passed the check, and the server then failed on its own metrics
 * listener. `localhost` is the loopback of either family, an IPv4-mapped IPv6 address its IPv4 address, IPv6 in its
 * canonical form; another name is compared as written (it is not resolved here: the check runs without the network).
 * The wildcard test comes after the canonical form: tested as written, HOST=::0 or 0:: (both "::") was no wildcard.
 */
function listenAddresses(host: string): Set<string> | "any" {
  const h = canonicalAddress(host);
  if (WILDCARD.has(h)) return "any";
  if (h === "localhost" || h.endsWith(".localhost")) return new Set(["127.0.0.1", "::1"]);
  return new Set([h]);
}

/** `host` trimmed, lower case, without brackets; an IPv6 address in its canonical form, an IPv4-mapped one as IPv4. */
function canonicalAddress(host: string): string {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (isIP(h) !== 6) return h;
  const canonical = new URL(`http://[${h}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped) return canonical;
  const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

function addressesOverlap(a: string, b: string): boolean {
  const [x, y] = [listenAddresses(a), listenAddresses(b)];
  return x === "any" || y === "any" || [...x].some((address) => y.has(address));
}

/** The metrics listener on the server's own port and address: it opened first, and the server then took itself for another. */
function metricsPortProblem(): string | null {
  try {
    const port = setting("PORT");
    const metricsPort = setting("SERVICE_METRICS_PORT");
    if (metricsPort === null || metricsPort === 0 || metricsPort !== port) return null;
    const host = setting("HOST");
    const metricsHost = setting("SERVICE_METRICS_HOST");
    if (!addressesOverlap(host, metricsHost)) return null;
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

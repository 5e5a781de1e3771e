// The shutdown timings' defaults and rule, in plain JavaScript: scripts/graceful-shutdown.mjs reads them before the
// server's code (and its settings registry) is loaded, and the registry (server/env/operate.ts) takes its entries'
// defaults from here, so the two cannot disagree. A value the settings check refuses stops the server at start; until
// that check has run (a signal while starting), the default stands in for it.

/** Milliseconds. */
export const SHUTDOWN_DEFAULTS = Object.freeze({
  SERVICE_SHUTDOWN_DELAY_MS: 5000,
  SERVICE_SHUTDOWN_GRACE_MS: 25_000,
});

/**
 * The least each may be: the delay may be 0 (stop accepting connections at once), the grace may not, since it bounds
 * the whole shutdown from the signal: 0 ended every shutdown at once with exit 1, in-flight requests cut and the
 * database left open.
 */
export const SHUTDOWN_MINIMUMS = Object.freeze({
  SERVICE_SHUTDOWN_DELAY_MS: 0,
  SERVICE_SHUTDOWN_GRACE_MS: 1,
});

/** The variable's value when it is a whole number of at least its minimum, else (unset, empty, anything else) its default. */
export function shutdownTiming(name, env = process.env) {
  const raw = (env[name] ?? "").trim();
  const n = raw === "" ? NaN : Number(raw);
  return Number.isInteger(n) && n >= SHUTDOWN_MINIMUMS[name] ? n : SHUTDOWN_DEFAULTS[name];
}

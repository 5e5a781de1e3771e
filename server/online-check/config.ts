// Probe locations and the burst limit of POST /online-check, read at call time.
import { parseProbeLocation, setting, type ProbeLocation } from "../env";

export type { ProbeLocation };

/**
 * SERVICE_PROBE_LOCATIONS: comma-separated entries, each "local" (this server; optionally "local=NAME" to label it)
 * or "NAME=https://probe.example/probe" (a remote probe agent, see docs/config/net-hosts-domain.md). Default: "local".
 * The settings check refuses an entry that is neither at start (server/env/addresses.ts parseProbeLocation).
 */
export function probeLocations(): ProbeLocation[] {
  const out = setting("SERVICE_PROBE_LOCATIONS")
    .map(parseProbeLocation)
    .filter((l): l is ProbeLocation => l !== null);
  return out.length ? out : [{ name: "local", kind: "local" }];
}

/** Bearer token sent to remote probe agents (SERVICE_PROBE_TOKEN); none when unset. */
export const probeToken = () => setting("SERVICE_PROBE_TOKEN");

/** SERVICE_ONLINE_CHECK_RATE_LIMIT requests per SERVICE_ONLINE_CHECK_RATE_WINDOW_SECONDS per workspace. */
export const onlineCheckRateLimit = () => setting("SERVICE_ONLINE_CHECK_RATE_LIMIT");
export const onlineCheckRateWindowSeconds = () => setting("SERVICE_ONLINE_CHECK_RATE_WINDOW_SECONDS");

/** Per-probe bound: the whole check answers within this plus a little (SERVICE_ONLINE_CHECK_TIMEOUT_MS). */
export const onlineCheckTimeoutMs = () => setting("SERVICE_ONLINE_CHECK_TIMEOUT_MS");

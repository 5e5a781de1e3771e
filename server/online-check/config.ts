// Probe locations and the burst limit of POST /online-check, read at call time.
import { parseProbeLocation, setting, type ProbeLocation } from "../env";

export type { ProbeLocation };

/**
 * SERVICE_PROBE_LOCATIONS: comma-separated entries, each read by server/env/addresses.ts parseProbeLocation (what it
 * takes is said there and in README's settings table): this server under a label, or "NAME=https://probe.example/probe"
 * (a remote probe agent, see docs/config/net-hosts-domain.md). Default: "local". The settings check refuses at start an
 * entry parseProbeLocation cannot use.
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

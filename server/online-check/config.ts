// Probe locations and the burst limit of POST /online-check, read at call time.
import { setting } from "../env";

export type ProbeLocation = { name: string; kind: "local" } | { name: string; kind: "remote"; url: string };

/**
 * SERVICE_PROBE_LOCATIONS: comma-separated entries, each "local" (this server; optionally "local=NAME" to label it)
 * or "NAME=https://probe.example/probe" (a remote probe agent, see docs/config/net-hosts-domain.md).
 * Default: "local". Invalid entries are skipped; with none left, the local probe is used.
 */
export function probeLocations(): ProbeLocation[] {
  const out: ProbeLocation[] = [];
  for (const entry of setting("SERVICE_PROBE_LOCATIONS")) {
    const eq = entry.indexOf("=");
    const name = eq < 0 ? entry : entry.slice(0, eq).trim();
    const value = eq < 0 ? "" : entry.slice(eq + 1).trim();
    if (name === "local" || value === "" || value === "local") {
      out.push({ name: name === "local" && value && value !== "local" ? value : name, kind: "local" });
      continue;
    }
    try {
      const u = new URL(value);
      if (u.protocol === "https:" || u.protocol === "http:") out.push({ name, kind: "remote", url: u.href });
    } catch {
      // skipped: a typo in one location must not take the endpoint down
    }
  }
  return out.length ? out : [{ name: "local", kind: "local" }];
}

/** Bearer token sent to remote probe agents (SERVICE_PROBE_TOKEN); none when unset. */
export const probeToken = () => setting("SERVICE_PROBE_TOKEN");

/** SERVICE_ONLINE_CHECK_RATE_LIMIT requests per SERVICE_ONLINE_CHECK_RATE_WINDOW_SECONDS per workspace. */
export const onlineCheckRateLimit = () => setting("SERVICE_ONLINE_CHECK_RATE_LIMIT");
export const onlineCheckRateWindowSeconds = () => setting("SERVICE_ONLINE_CHECK_RATE_WINDOW_SECONDS");

/** Per-probe bound: the whole check answers within this plus a little (SERVICE_ONLINE_CHECK_TIMEOUT_MS). */
export const onlineCheckTimeoutMs = () => setting("SERVICE_ONLINE_CHECK_TIMEOUT_MS");

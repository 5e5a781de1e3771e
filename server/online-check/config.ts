// Probe locations and the burst limit of POST /online-check, read at call time.
import { numberSetting, upstreamTimeoutMs } from "../env";

export type ProbeLocation = { name: string; kind: "local" } | { name: string; kind: "remote"; url: string };

/**
 * SERVICE_PROBE_LOCATIONS: comma-separated entries, each "local" (this server; optionally "local=NAME" to label it)
 * or "NAME=https://probe.example/probe" (a remote probe agent, see docs/config/net-hosts-domain.md).
 * Default: "local". Invalid entries are skipped; with none left, the local probe is used.
 */
export function probeLocations(): ProbeLocation[] {
  const raw = process.env.SERVICE_PROBE_LOCATIONS?.trim();
  const out: ProbeLocation[] = [];
  for (const entry of (raw || "local")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
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
export const probeToken = () => process.env.SERVICE_PROBE_TOKEN?.trim() || null;

const int = (name: string, fallback: number) => numberSetting(name, fallback, { min: 1 });

/** SERVICE_ONLINE_CHECK_RATE_LIMIT requests per SERVICE_ONLINE_CHECK_RATE_WINDOW_SECONDS per workspace. */
export const onlineCheckRateLimit = () => int("SERVICE_ONLINE_CHECK_RATE_LIMIT", 10);
export const onlineCheckRateWindowSeconds = () => int("SERVICE_ONLINE_CHECK_RATE_WINDOW_SECONDS", 60);

/** Per-probe bound: the whole check answers within this plus a little (SERVICE_ONLINE_CHECK_TIMEOUT_MS). */
export const onlineCheckTimeoutMs = () => int("SERVICE_ONLINE_CHECK_TIMEOUT_MS", upstreamTimeoutMs());

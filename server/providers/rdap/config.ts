// RDAP settings, read at call time so tests can point every query at a local server.
import { numberSetting, upstreamTimeoutMs } from "../../env";

/** Base of the IANA bootstrap files (dns.json, ipv4.json, ipv6.json, asn.json) used by `feeds refresh`. */
export function rdapBootstrapBaseUrl(): string {
  const v = process.env.SERVICE_RDAP_BOOTSTRAP_URL?.trim() || "https://data.iana.org/rdap/";
  return v.endsWith("/") ? v : `${v}/`;
}

/** When set, every RDAP query goes to this server instead of the one the bootstrap names (a mirror, or tests). */
export function rdapBaseUrlOverride(): string | null {
  const v = process.env.SERVICE_RDAP_BASE_URL?.trim();
  return v ? (v.endsWith("/") ? v : `${v}/`) : null;
}

/**
 * Per-registry or per-TLD servers: `SERVICE_RDAP_SERVERS="arin=https://rdap.example/,com=https://..."`.
 * Keys are a registry name (arin, ripe, apnic, lacnic, afrinic) or a top-level domain.
 */
export function rdapServerOverrides(): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (process.env.SERVICE_RDAP_SERVERS ?? "").split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const url = part.slice(eq + 1).trim();
    out.set(part.slice(0, eq).trim().toLowerCase(), url.endsWith("/") ? url : `${url}/`);
  }
  return out;
}

export function rdapTimeoutMs(): number {
  return numberSetting("SERVICE_RDAP_TIMEOUT_MS", upstreamTimeoutMs(), { min: 1 });
}

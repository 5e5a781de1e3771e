// RDAP settings, read at call time so tests can point every query at a local server.
import { parseRdapServer, setting } from "../../env";

/** Base of the IANA bootstrap files (dns.json, ipv4.json, ipv6.json, asn.json) used by `feeds refresh`. */
export function rdapBootstrapBaseUrl(): string {
  const v = setting("SERVICE_RDAP_BOOTSTRAP_URL");
  return v.endsWith("/") ? v : `${v}/`;
}

/** When set, every RDAP query goes to this server instead of the one the bootstrap names (a mirror, or tests). */
export function rdapBaseUrlOverride(): string | null {
  const v = setting("SERVICE_RDAP_BASE_URL");
  return v ? (v.endsWith("/") ? v : `${v}/`) : null;
}

/**
 * Per-registry or per-TLD servers: `SERVICE_RDAP_SERVERS="arin=https://rdap.example/,com=https://..."`.
 * Keys are a registry name (arin, ripe, apnic, lacnic, afrinic) or a top-level domain.
 */
export function rdapServerOverrides(): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of setting("SERVICE_RDAP_SERVERS")) {
    const server = parseRdapServer(part);
    if (server) out.set(server.key, server.url);
  }
  return out;
}

export function rdapTimeoutMs(): number {
  return setting("SERVICE_RDAP_TIMEOUT_MS");
}

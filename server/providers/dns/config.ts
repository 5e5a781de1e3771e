// Resolver configuration, read at call time so tests can point it at a local DNS server.
import { getServers } from "node:dns";
import { parseDnsServer, setting, type DnsServer } from "../../env";

export type { DnsServer };

/**
 * SERVICE_DNS_SERVERS: comma-separated resolvers ("1.1.1.1", "127.0.0.1:5353", "[2001:db8::1]:53").
 * Default: the system resolvers (node reads /etc/resolv.conf), so the service uses what the host uses.
 */
export function getDnsServers(): DnsServer[] {
  const configured = setting("SERVICE_DNS_SERVERS");
  const raw = configured.length > 0;
  const entries = raw ? configured : getServers();
  const servers = entries.map(parseServer).filter((s): s is DnsServer => s !== null);
  if (servers.length === 0)
    throw new Error(`No usable DNS server in ${raw ? "SERVICE_DNS_SERVERS" : "the system resolver configuration"}`);
  return servers;
}

/** One resolver address (server/env/addresses.ts, the rule the settings check applies too); null when it is none. */
export const parseServer = parseDnsServer;

/** SERVICE_DNS_TIMEOUT_MS: how long one query waits for one server before trying the next. */
export function getDnsTimeoutMs(): number {
  return setting("SERVICE_DNS_TIMEOUT_MS");
}

// Which DNS blocklists are queried, through which resolvers, and how long each query may take. Read at call time.
import { setting } from "../env";
import { getDnsServers, parseServer, type DnsServer } from "../providers/dns";

const zones = (items: string[]) => [...new Set(items.map((s) => s.toLowerCase().replace(/\.$/, "")).filter(Boolean))];

/** SERVICE_DNSBL_IP_ZONES: comma-separated IP blocklist zones. */
export const ipZones = () => zones(setting("SERVICE_DNSBL_IP_ZONES"));
/** SERVICE_DNSBL_DOMAIN_ZONES: comma-separated domain blocklist zones. */
export const domainZones = () => zones(setting("SERVICE_DNSBL_DOMAIN_ZONES"));

/** SERVICE_DNSBL_TIMEOUT_MS: per query and resolver (default 2000). */
export function dnsblTimeoutMs(): number {
  return setting("SERVICE_DNSBL_TIMEOUT_MS");
}

/**
 * SERVICE_DNSBL_DNS_SERVERS: resolvers for blocklist queries only. Operators such as Spamhaus refuse queries that
 * arrive through public resolvers, so a deployment may point these at its own recursive resolver. Default: the
 * general resolvers (SERVICE_DNS_SERVERS).
 */
export function dnsblServers(): DnsServer[] {
  const servers = setting("SERVICE_DNSBL_DNS_SERVERS")
    .map(parseServer)
    .filter((s): s is DnsServer => s !== null);
  return servers.length ? servers : getDnsServers();
}

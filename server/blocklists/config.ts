// Which DNS blocklists are queried, through which resolvers, and how long each query may take. Read at call time.
import { numberSetting } from "../env";
import { getDnsServers, parseServer, type DnsServer } from "../providers/dns";

export const DEFAULT_IP_ZONES = ["zen.spamhaus.org", "bl.spamcop.net", "b.barracudacentral.org"];
export const DEFAULT_DOMAIN_ZONES = ["dbl.spamhaus.org", "multi.surbl.org"];

const list = (v: string | undefined, dflt: string[]) => {
  const items = v
    ?.split(",")
    .map((s) => s.trim().toLowerCase().replace(/\.$/, ""))
    .filter(Boolean);
  return items && items.length > 0 ? [...new Set(items)] : dflt;
};

/** SERVICE_DNSBL_IP_ZONES: comma-separated IP blocklist zones. */
export const ipZones = () => list(process.env.SERVICE_DNSBL_IP_ZONES, DEFAULT_IP_ZONES);
/** SERVICE_DNSBL_DOMAIN_ZONES: comma-separated domain blocklist zones. */
export const domainZones = () => list(process.env.SERVICE_DNSBL_DOMAIN_ZONES, DEFAULT_DOMAIN_ZONES);

/** SERVICE_DNSBL_TIMEOUT_MS: per query and resolver (default 2000). */
export function dnsblTimeoutMs(): number {
  return numberSetting("SERVICE_DNSBL_TIMEOUT_MS", 2000, { min: 1 });
}

/**
 * SERVICE_DNSBL_DNS_SERVERS: resolvers for blocklist queries only. Operators such as Spamhaus refuse queries that
 * arrive through public resolvers, so a deployment may point these at its own recursive resolver. Default: the
 * general resolvers (SERVICE_DNS_SERVERS).
 */
export function dnsblServers(): DnsServer[] {
  const raw = process.env.SERVICE_DNSBL_DNS_SERVERS?.trim();
  if (!raw) return getDnsServers();
  const servers = raw
    .split(",")
    .map((s) => parseServer(s.trim()))
    .filter((s): s is DnsServer => s !== null);
  return servers.length ? servers : getDnsServers();
}

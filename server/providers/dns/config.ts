// Resolver configuration, read at call time so tests can point it at a local DNS server.
import { setting } from "../../env";
import { getServers } from "node:dns";
import { isIP } from "node:net";

export interface DnsServer {
  host: string;
  port: number;
  /** As written in answers: "192.0.2.53:53" or "[2001:db8::53]:53". */
  label: string;
}

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

export function parseServer(entry: string): DnsServer | null {
  let host = entry;
  let port = 53;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    host = bracketed[1];
    if (bracketed[2]) port = Number(bracketed[2]);
  } else if (isIP(entry) === 0) {
    const m = /^([^:]+):(\d+)$/.exec(entry);
    if (!m) return null;
    host = m[1];
    port = Number(m[2]);
  }
  const family = isIP(host);
  if (family === 0 || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { host, port, label: family === 6 ? `[${host}]:${port}` : `${host}:${port}` };
}

/** SERVICE_DNS_TIMEOUT_MS: how long one query waits for one server before trying the next. */
export function getDnsTimeoutMs(): number {
  return setting("SERVICE_DNS_TIMEOUT_MS");
}

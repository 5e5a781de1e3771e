// What one item of an address setting means: a resolver (SERVICE_DNS_SERVERS), a probe location
// (SERVICE_PROBE_LOCATIONS), an RDAP server (SERVICE_RDAP_SERVERS), a feed's source (SERVICE_FEED_<NAME>_URL) or a CA
// file (SERVICE_EXTRA_CA_FILE). One rule each: the settings check refuses at start what it cannot read, and the
// modules that use the setting read it with the same function.
import { readFileSync, statSync } from "node:fs";
import { isIP } from "node:net";
import { httpUrl } from "./kinds";

export interface DnsServer {
  host: string;
  port: number;
  /** As written in answers: "192.0.2.53:53" or "[2001:db8::53]:53". */
  label: string;
}

/** One resolver: `192.0.2.53`, `127.0.0.1:5353`, `2001:db8::53` or `[2001:db8::53]:53`; null when it is none. */
export function parseDnsServer(entry: string): DnsServer | null {
  let host = entry;
  let port = 53;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    host = bracketed[1]!;
    if (bracketed[2]) port = Number(bracketed[2]);
  } else if (isIP(entry) === 0) {
    const m = /^([^:]+):(\d+)$/.exec(entry);
    if (!m) return null;
    host = m[1]!;
    port = Number(m[2]);
  }
  const family = isIP(host);
  if (family === 0 || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { host, port, label: family === 6 ? `[${host}]:${port}` : `${host}:${port}` };
}

export type ProbeLocation = { name: string; kind: "local" } | { name: string; kind: "remote"; url: string };

/**
 * One probe location, read as the reader before the start-up check read it (it skipped what it could not use):
 * `local` or `local=NAME` (this server, labelled NAME), `NAME` or `NAME=` or `NAME=local` (this server, labelled NAME),
 * `NAME=http(s)://agent/probe` (a remote agent). A name is any text (spaces, any letters) that is not empty and not a
 * URL (a bare URL was meant as a remote agent, not as a label). Null when no probe can be made of it.
 */
export function parseProbeLocation(entry: string): ProbeLocation | null {
  const eq = entry.indexOf("=");
  const name = (eq < 0 ? entry : entry.slice(0, eq)).trim();
  const value = eq < 0 ? "" : entry.slice(eq + 1).trim();
  const usable = (label: string) => label !== "" && !label.includes("://");
  if (name === "local" || value === "" || value === "local") {
    const label = name === "local" && value !== "" && value !== "local" ? value : name;
    return usable(label) ? { name: label, kind: "local" } : null;
  }
  if (!usable(name)) return null;
  return httpUrl.safeParse(value).success ? { name, kind: "remote", url: new URL(value).href } : null;
}

/** One RDAP server: `KEY=http(s)://server/`, KEY a registry (arin, ripe, ...) or a TLD; null when it is none. */
export function parseRdapServer(entry: string): { key: string; url: string } | null {
  const eq = entry.indexOf("=");
  if (eq <= 0) return null;
  const key = entry.slice(0, eq).trim().toLowerCase();
  const url = entry.slice(eq + 1).trim();
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(key) || !httpUrl.safeParse(url).success) return null;
  return { key, url: url.endsWith("/") ? url : `${url}/` };
}

/** A feed's source: `off`, or one http(s) URL (several space-separated for a feed published as several files). */
export const isFeedSource = (value: string): boolean =>
  value.toLowerCase() === "off" || value.split(/\s+/).every((u) => httpUrl.safeParse(u).success);

// Paths seen to be PEM files: outside production every read of the setting runs its check, which would read the
// file again for each TLS connection (trustedCas keeps what it read for the same value).
const pemFilesSeen = new Set<string>();

/** A file that can be read and holds at least one PEM certificate (read once per path that is one). */
export function isPemCertificateFile(file: string): boolean {
  if (pemFilesSeen.has(file)) return true;
  try {
    if (!statSync(file).isFile()) return false;
    if (!readFileSync(file, "utf8").includes("-----BEGIN CERTIFICATE-----")) return false;
  } catch {
    return false;
  }
  pemFilesSeen.add(file);
  return true;
}

// Which RDAP server answers for an IP address, an AS number or a domain: the configured override, else the IANA
// bootstrap registries (shipped, refreshable feeds). Lookup tables are built once per bootstrap version.
import { rdapBootstrapFeeds, type BootstrapRegistry } from "../../feeds/definitions/rdap-bootstrap";
import { IpRangeSet, parseCidr } from "../../feeds/ip-range-set";
import { derived, getFeedSync } from "../../feeds/loader";
import type { FeedState } from "../../feeds/types";
import { rdapBaseUrlOverride, rdapServerOverrides } from "./config";

export type RdapTarget =
  { kind: "ip"; address: string } | { kind: "asn"; asn: number } | { kind: "domain"; domain: string };

export interface RdapServer {
  baseUrl: string;
  /** The registry behind the server: ARIN, RIPE NCC, ... for numbers; the server's host for domains. */
  registry: string;
  bootstrap: { name: string; publication: string | null } | null;
}

const RIRS: [RegExp, string, string][] = [
  [/(^|\.)arin\.net$/, "ARIN", "arin"],
  [/(^|\.)ripe\.net$/, "RIPE NCC", "ripe"],
  [/(^|\.)apnic\.net$/, "APNIC", "apnic"],
  [/(^|\.)lacnic\.net$/, "LACNIC", "lacnic"],
  [/(^|\.)afrinic\.net$/, "AFRINIC", "afrinic"],
];

function registryOf(url: string): { name: string; key: string | null } {
  const host = new URL(url).hostname.toLowerCase();
  for (const [re, name, key] of RIRS) if (re.test(host)) return { name, key };
  return { name: host, key: null };
}

const preferHttps = (urls: string[]): string | null => urls.find((u) => u.startsWith("https://")) ?? urls[0] ?? null;

function ipTable(kind: "ipv4" | "ipv6", state: FeedState<BootstrapRegistry>): IpRangeSet<string> {
  const reg = state.data;
  return derived(`rdap-${kind}`, [reg], () =>
    IpRangeSet.build(
      reg.services.flatMap(([cidrs, urls]) => {
        const url = preferHttps(urls);
        return url ? cidrs.flatMap((c) => ((r) => (r ? [{ range: r, label: url }] : []))(parseCidr(c))) : [];
      }),
    ),
  );
}

function fromBootstrap(target: RdapTarget): { url: string; feed: FeedState<BootstrapRegistry>; name: string } | null {
  if (target.kind === "ip") {
    const kind = target.address.includes(":") ? "ipv6" : "ipv4";
    const feed = rdapBootstrapFeeds[kind];
    const state = getFeedSync(feed);
    const url = ipTable(kind, state).lookup(target.address);
    return url ? { url, feed: state, name: feed.name } : null;
  }
  if (target.kind === "asn") {
    const state = getFeedSync(rdapBootstrapFeeds.asn);
    for (const [ranges, urls] of state.data.services) {
      for (const r of ranges) {
        const [lo, hi] = r.split("-").map(Number);
        if (target.asn >= lo! && target.asn <= (hi ?? lo)!) {
          const url = preferHttps(urls);
          if (url) return { url, feed: state, name: rdapBootstrapFeeds.asn.name };
        }
      }
    }
    return null;
  }
  const state = getFeedSync(rdapBootstrapFeeds.dns);
  const reg = state.data;
  const table = derived("rdap-dns", [reg], () => {
    const m = new Map<string, string>();
    for (const [tlds, urls] of reg.services) {
      const url = preferHttps(urls);
      if (url) for (const t of tlds) m.set(t.toLowerCase(), url);
    }
    return m;
  });
  const labels = target.domain.toLowerCase().split(".");
  // Longest suffix first: the bootstrap may list multi-label entries.
  for (let i = 0; i < labels.length; i++) {
    const url = table.get(labels.slice(i).join("."));
    if (url) return { url, feed: state, name: rdapBootstrapFeeds.dns.name };
  }
  return null;
}

/** The RDAP server for a target, or null when no registry serves it (private space, unknown TLD). */
export function findRdapServer(target: RdapTarget): RdapServer | null {
  const found = fromBootstrap(target);
  const overrides = rdapServerOverrides();
  const base = rdapBaseUrlOverride();
  const bootstrap = found ? { name: found.name, publication: found.feed.data.publication } : null;
  if (found) {
    const reg = registryOf(found.url);
    const tld = target.kind === "domain" ? target.domain.toLowerCase().split(".").pop()! : null;
    const override = (reg.key && overrides.get(reg.key)) || (tld && overrides.get(tld)) || base;
    return {
      baseUrl: override || (found.url.endsWith("/") ? found.url : `${found.url}/`),
      registry: reg.name,
      bootstrap,
    };
  }
  if (target.kind === "domain") {
    const override = overrides.get(target.domain.toLowerCase().split(".").pop()!);
    if (override) return { baseUrl: override, registry: new URL(override).hostname, bootstrap: null };
  }
  return null;
}

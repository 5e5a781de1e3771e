// VPN exits, VPN networks and hosting networks from X4BNet's lists_vpn (MIT): the exit lists Mullvad, Private
// Internet Access and Proton VPN publish (as X4BNet collects them), the VPN and datacenter ranges X4BNet derives from
// operators' ASNs, and its two annotated ASN lists. Kept as separate feeds because their bases differ: a provider's
// published exit is proof (high confidence); a range or an ASN of a VPN operator or a hosting company only says
// what the network is (medium). Shipped dated 2026-08-22 (data/feeds/LICENSE-x4bnet.txt beside them); each refreshes
// from X4BNet's published file, or from SERVICE_FEED_<NAME>_URL.
import { feedSourceUrl, shippedFeedFile } from "../config";
import type { FeedDefinition } from "../types";
import { rangeFeed } from "./ranges";

const X4B = "https://raw.githubusercontent.com/X4BNet/lists_vpn/main";
const LICENSE = "MIT (X4B, X4BNet/lists_vpn); the facts are each operator's own published list";
const ATTRIBUTION = "X4B (Mathew Heard), X4BNet/lists_vpn, MIT License";
const both = (...urls: string[]) => urls.join(" ");

export const mullvadFeed = rangeFeed({
  name: "vpn-mullvad",
  kind: "vpn",
  provider: "Mullvad VPN",
  list: "Mullvad server list (X4BNet lists_vpn)",
  basis: "provider_exit_list",
  defaultUrl: `${X4B}/input/vpn/ips/mullvadvpn.txt`,
  license: LICENSE,
  attribution: ATTRIBUTION,
});
export const piaFeed = rangeFeed({
  name: "vpn-pia",
  kind: "vpn",
  provider: "Private Internet Access",
  list: "PIA server list (X4BNet lists_vpn)",
  basis: "provider_exit_list",
  defaultUrl: `${X4B}/input/vpn/ips/pia.txt`,
  license: LICENSE,
  attribution: ATTRIBUTION,
});
export const protonX4bFeed = rangeFeed({
  name: "vpn-protonvpn-x4bnet",
  kind: "vpn",
  provider: "Proton VPN",
  list: "Proton VPN logicals API (X4BNet lists_vpn)",
  basis: "provider_exit_list",
  defaultUrl: `${X4B}/input/vpn/ips/protonvpn.txt`,
  license: LICENSE,
  attribution: ATTRIBUTION,
});
/** VPN operators' networks; the provider is named from the origin AS (./privacy-lists' ASN lists, the ASN data). */
export const vpnNetworksFeed = rangeFeed({
  name: "vpn-x4bnet",
  kind: "vpn",
  provider: "a VPN operator",
  list: "X4BNet lists_vpn VPN ranges",
  basis: "vpn_network",
  confidence: "medium",
  defaultUrl: both(`${X4B}/output/vpn/ipv4.txt`, `${X4B}/output/vpn/ipv6.txt`),
  license: LICENSE,
  attribution: ATTRIBUTION,
});
/** Hosting and datacenter networks; the operator is named from the origin AS. */
export const datacenterFeed = rangeFeed({
  name: "datacenter-x4bnet",
  kind: "hosting",
  provider: "a hosting operator",
  list: "X4BNet lists_vpn datacenter ranges",
  basis: "datacenter_range",
  confidence: "medium",
  defaultUrl: both(`${X4B}/output/datacenter/ipv4.txt`, `${X4B}/output/datacenter/ipv6.txt`),
  license: LICENSE,
  attribution: ATTRIBUTION,
});

/** An annotated ASN: `AS9009 # M247, GB (NordVPN)`. */
export interface AnnotatedAsn {
  asn: number;
  /** The operator as the annotation names it, cleaned of RIR handles and country codes; null when it names none. */
  operator: string | null;
  /**
   * The annotation ends in "?" (`AS212238 # Datacamp VPN?`): the list's maintainer is unsure the network carries VPN
   * exits. The "?" is not part of the name; the answer says it at low confidence instead.
   */
  doubtful: boolean;
}

/**
 * "M247, GB (NordVPN)" -> "M247 (NordVPN)"; "ASN-QUADRANET-GLOBAL - QuadraNet, Inc, US" -> "QuadraNet, Inc";
 * a URL, "DATACENTER" or "UNSPECIFIED, NG" names nobody (null).
 */
export function operatorOf(comment: string): string | null {
  let c = comment.trim();
  if (!c || /^https?:\/\//i.test(c)) return null;
  const dash = c.indexOf(" - ");
  if (dash > 0 && /^[A-Z0-9-]+$/.test(c.slice(0, dash))) c = c.slice(dash + 3);
  c = c
    .replace(/,\s*[A-Z]{2}(?=\s*(\(|$))/, "")
    .replace(/\s+-?\s*\(?https?:\/\/\S+/i, "")
    .replace(/,\s+[a-z].*$/, "") // "Tencent cloud computing, they dont really monitor their network"
    .trim();
  if (!c || /^(DATACENTER|UNSPECIFIED|AS\d+)$/i.test(c)) return null;
  return c;
}

function asnListFeed(o: {
  name: string;
  description: string;
  defaultUrl: string;
}): FeedDefinition<Map<number, AnnotatedAsn>> {
  return {
    name: o.name,
    description: o.description,
    license: LICENSE,
    attribution: ATTRIBUTION,
    snapshotPath: shippedFeedFile(`${o.name}.txt`),
    sourceUrl: () => feedSourceUrl(o.name, o.defaultUrl),
    parse(raw) {
      const data = new Map<number, AnnotatedAsn>();
      const lines = raw.toString("utf8").split("\n");
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!.trim();
        if (!line || line.startsWith("#")) continue;
        const m = /^AS(\d+)\s*(?:#\s*(.*))?$/i.exec(line);
        if (!m) throw new Error(`${o.name}: not an ASN at line ${i + 1}: ${JSON.stringify(line.slice(0, 60))}`);
        const asn = Number(m[1]);
        // A number listed twice keeps its first annotation (the list's own order).
        const comment = m[2] ?? "";
        const doubtful = /\?\s*$/.test(comment);
        if (!data.has(asn)) data.set(asn, { asn, operator: operatorOf(comment.replace(/\?+\s*$/, "")), doubtful });
      }
      return { data, count: data.size };
    },
  };
}

export const vpnAsnsFeed = asnListFeed({
  name: "vpn-asns-x4bnet",
  description: "ASNs of VPN operators and of hosting networks known to carry VPN exits (X4BNet lists_vpn, annotated)",
  defaultUrl: `${X4B}/input/vpn/ASN.txt`,
});
export const datacenterAsnsFeed = asnListFeed({
  name: "datacenter-asns-x4bnet",
  description: "ASNs of hosting and datacenter operators (X4BNet lists_vpn, annotated)",
  defaultUrl: `${X4B}/input/datacenter/ASN.txt`,
});

export const X4B_RANGE_FEEDS = [mullvadFeed, piaFeed, protonX4bFeed, vpnNetworksFeed, datacenterFeed] as const;
export const X4B_ASN_FEEDS = [vpnAsnsFeed, datacenterAsnsFeed] as const;

// The IANA RDAP bootstrap registries (RFC 9224): which RDAP server answers for a TLD, an IP block or an ASN range.
// Shipped from the copies embedded in the npm package rdap (see data/feeds/build/extract-from-npm.mjs).
import { rdapBootstrapBaseUrl } from "../../providers/rdap/config";
import { feedSourceUrl, shippedFeedFile } from "../config";
import type { FeedDefinition } from "../types";

export type BootstrapKind = "dns" | "ipv4" | "ipv6" | "asn";

export interface BootstrapRegistry {
  publication: string | null;
  /** [entries (TLDs, CIDRs or "start-end" ASN ranges), server base URLs] */
  services: [string[], string[]][];
}

function bootstrapFeed(kind: BootstrapKind): FeedDefinition<BootstrapRegistry> {
  const name = `rdap-bootstrap-${kind}`;
  return {
    name,
    description: `IANA RDAP bootstrap registry for ${kind === "dns" ? "domain names" : kind === "asn" ? "AS numbers" : kind.toUpperCase() + " addresses"}`,
    license: "IANA registry data, published for unrestricted use",
    attribution: "Internet Assigned Numbers Authority (IANA)",
    snapshotPath: shippedFeedFile(`${name}.json`),
    sourceUrl: () => feedSourceUrl(name, `${rdapBootstrapBaseUrl()}${kind}.json`),
    parse(raw) {
      const doc = JSON.parse(raw.toString("utf8")) as { publication?: unknown; services?: unknown };
      if (!Array.isArray(doc.services)) throw new Error(`${name}: missing services`);
      const services: [string[], string[]][] = [];
      for (const s of doc.services as unknown[]) {
        if (!Array.isArray(s) || s.length < 2 || !Array.isArray(s[0]) || !Array.isArray(s[1]))
          throw new Error(`${name}: malformed service`);
        const [entries, urls] = s as [unknown[], unknown[]];
        if (
          !entries.every((e) => typeof e === "string") ||
          !urls.every((u) => typeof u === "string" && /^https?:\/\//.test(u))
        ) {
          throw new Error(`${name}: malformed service entry`);
        }
        services.push([entries as string[], urls as string[]]);
      }
      if (services.length === 0) throw new Error(`${name}: no services`);
      const publication = typeof doc.publication === "string" ? doc.publication : null;
      return { data: { publication, services }, count: services.length, version: publication };
    },
  };
}

export const rdapBootstrapFeeds = {
  dns: bootstrapFeed("dns"),
  ipv4: bootstrapFeed("ipv4"),
  ipv6: bootstrapFeed("ipv6"),
  asn: bootstrapFeed("asn"),
} as const;

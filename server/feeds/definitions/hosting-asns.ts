// Autonomous systems of cloud, hosting and CDN operators, and of platforms' own networks (Google's AS15169: its own
// services, not machines anyone can rent): the ASN side of the hosting classification, which also covers providers
// that publish no range files. Curated for this service and changed with a release.
import { shippedFeedFile } from "../config";
import type { FeedDefinition } from "../types";

export interface HostingAsn {
  asn: number;
  provider: string;
  kind: "cloud" | "platform" | "hosting" | "cdn";
}

const KINDS = new Set(["cloud", "platform", "hosting", "cdn"]);

export const hostingAsnsFeed: FeedDefinition<Map<number, HostingAsn>> = {
  name: "hosting-asns",
  description: "ASNs operated by cloud, hosting and CDN providers (curated)",
  license: "CC0-1.0",
  attribution: null,
  snapshotPath: shippedFeedFile("hosting-asns.json"),
  sourceUrl: () => null,
  parse(raw) {
    const doc = JSON.parse(raw.toString("utf8")) as { asns?: unknown };
    if (!Array.isArray(doc.asns)) throw new Error("hosting-asns: missing asns array");
    const data = new Map<number, HostingAsn>();
    for (const e of doc.asns as HostingAsn[]) {
      if (!Number.isInteger(e.asn) || typeof e.provider !== "string" || !KINDS.has(e.kind))
        throw new Error(`hosting-asns: bad entry ${JSON.stringify(e)}`);
      data.set(e.asn, { asn: e.asn, provider: e.provider, kind: e.kind });
    }
    return { data, count: data.size };
  },
};

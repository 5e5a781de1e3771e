// Published IP ranges of major clouds and CDNs, one feed per provider because each publishes its own file.
// Only Cloudflare's ranges ship (from the npm package cloudflare-ip); the others ship empty and fill on refresh.
// Every parser also reads the normalised form `[ "cidr" | { cidr, region?, service? } ]` used by the snapshots.
import { feedSourceUrl, shippedFeedFile } from "../config";
import { IpRangeSet, parseCidr, type ParsedRange } from "../ip-range-set";
import type { FeedDefinition } from "../types";

export interface CloudRange {
  provider: string;
  region: string | null;
  service: string | null;
}

type Entry = { cidr: string; region?: string | null; service?: string | null };
type Extract = (json: unknown, text: string) => { entries: Entry[]; version: string | null } | null;

const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
const arr = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);

function normalised(json: unknown): Entry[] | null {
  if (!Array.isArray(json)) return null;
  return json.map((e) => (typeof e === "string" ? { cidr: e } : { cidr: String((e as Entry).cidr), region: (e as Entry).region ?? null, service: (e as Entry).service ?? null }));
}

function cloudFeed(o: { name: string; provider: string; defaultUrl: string | null; license: string; attribution: string; extract: Extract; text?: boolean }): FeedDefinition<IpRangeSet<CloudRange>> {
  return {
    name: o.name,
    description: `Published IP ranges of ${o.provider}`,
    license: o.license,
    attribution: o.attribution,
    snapshotPath: shippedFeedFile(`${o.name}.json`),
    sourceUrl: () => feedSourceUrl(o.name, o.defaultUrl),
    parse(raw) {
      const text = raw.toString("utf8");
      let json: unknown = null;
      if (!o.text || /^\s*[[{]/.test(text)) {
        try {
          json = JSON.parse(text);
        } catch {
          throw new Error(`${o.name}: not JSON`);
        }
      }
      const plain = normalised(json);
      const got = plain ? { entries: plain, version: null } : o.extract(json, text);
      if (!got) throw new Error(`${o.name}: unrecognised format`);
      const labels = new Map<string, CloudRange>();
      const ranges: { range: ParsedRange; label: CloudRange }[] = [];
      for (const e of got.entries) {
        const range = parseCidr(e.cidr);
        if (!range) throw new Error(`${o.name}: not a CIDR: ${JSON.stringify(String(e.cidr).slice(0, 60))}`);
        const key = `${e.region ?? ""}|${e.service ?? ""}`;
        let label = labels.get(key);
        if (!label) labels.set(key, (label = { provider: o.provider, region: e.region ?? null, service: e.service ?? null }));
        ranges.push({ range, label });
      }
      return { data: IpRangeSet.build(ranges), count: ranges.length, version: got.version };
    },
  };
}

export const cloudflareFeed = cloudFeed({
  name: "cloud-cloudflare",
  provider: "Cloudflare",
  defaultUrl: "https://api.cloudflare.com/client/v4/ips",
  license: "Published by Cloudflare for public use",
  attribution: "Cloudflare, Inc. (cloudflare.com/ips)",
  text: true,
  extract(json, text) {
    const result = (json as { result?: { ipv4_cidrs?: string[]; ipv6_cidrs?: string[]; etag?: string } } | null)?.result;
    if (result) return { entries: [...(result.ipv4_cidrs ?? []), ...(result.ipv6_cidrs ?? [])].map((cidr) => ({ cidr })), version: result.etag ?? null };
    if (json !== null) return null;
    // https://www.cloudflare.com/ips-v4 style: one CIDR per line.
    return { entries: text.split("\n").map((l) => l.trim()).filter(Boolean).map((cidr) => ({ cidr })), version: null };
  },
});

export const awsFeed = cloudFeed({
  name: "cloud-aws",
  provider: "Amazon Web Services",
  defaultUrl: "https://ip-ranges.amazonaws.com/ip-ranges.json",
  license: "Published by Amazon Web Services for public use",
  attribution: "Amazon Web Services, ip-ranges.amazonaws.com",
  extract(json) {
    const j = json as { prefixes?: unknown; ipv6_prefixes?: unknown; createDate?: string } | null;
    if (!j || !Array.isArray(j.prefixes)) return null;
    const entries = [
      ...arr(j.prefixes).map((p) => ({ cidr: String(p.ip_prefix), region: str(p.region), service: str(p.service) })),
      ...arr(j.ipv6_prefixes).map((p) => ({ cidr: String(p.ipv6_prefix), region: str(p.region), service: str(p.service) })),
    ];
    return { entries, version: j.createDate ?? null };
  },
});

export const gcpFeed = cloudFeed({
  name: "cloud-gcp",
  provider: "Google Cloud",
  defaultUrl: "https://www.gstatic.com/ipranges/cloud.json",
  license: "Published by Google for public use",
  attribution: "Google LLC, gstatic.com/ipranges/cloud.json",
  extract(json) {
    const j = json as { prefixes?: unknown; creationTime?: string } | null;
    if (!j || !Array.isArray(j.prefixes)) return null;
    const entries = arr(j.prefixes).map((p) => ({ cidr: String(p.ipv4Prefix ?? p.ipv6Prefix), region: str(p.scope), service: str(p.service) }));
    return { entries, version: j.creationTime ?? null };
  },
});

export const oracleFeed = cloudFeed({
  name: "cloud-oracle",
  provider: "Oracle Cloud",
  defaultUrl: "https://docs.oracle.com/iaas/tools/public_ip_ranges.json",
  license: "Published by Oracle for public use",
  attribution: "Oracle Corporation, docs.oracle.com/iaas/tools/public_ip_ranges.json",
  extract(json) {
    const j = json as { regions?: unknown; last_updated_timestamp?: string } | null;
    if (!j || !Array.isArray(j.regions)) return null;
    const entries = arr(j.regions).flatMap((r) => arr(r.cidrs).map((c) => ({ cidr: String(c.cidr), region: str(r.region), service: Array.isArray(c.tags) ? c.tags.join(",") : null })));
    return { entries, version: j.last_updated_timestamp ?? null };
  },
});

export const digitalOceanFeed = cloudFeed({
  name: "cloud-digitalocean",
  provider: "DigitalOcean",
  defaultUrl: "https://digitalocean.com/geo/google.csv",
  license: "Published by DigitalOcean for public use (geofeed)",
  attribution: "DigitalOcean, LLC, digitalocean.com/geo/google.csv",
  text: true,
  extract(json, text) {
    if (json !== null) return null;
    const entries = text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"))
      .map((l) => {
        const [cidr, country, region] = l.split(",");
        return { cidr: cidr ?? "", region: [country, region].filter(Boolean).join("-") || null, service: null };
      });
    return { entries, version: null };
  },
});

// Azure publishes a weekly file whose URL changes each week: set SERVICE_FEED_CLOUD_AZURE_URL to the current one.
export const azureFeed = cloudFeed({
  name: "cloud-azure",
  provider: "Microsoft Azure",
  defaultUrl: null,
  license: "Microsoft Azure IP Ranges and Service Tags, published for public use",
  attribution: "Microsoft Corporation, Azure IP Ranges and Service Tags (Public Cloud)",
  extract(json) {
    const j = json as { values?: unknown; changeNumber?: number } | null;
    if (!j || !Array.isArray(j.values)) return null;
    const entries = arr(j.values)
      .filter((v) => typeof v.name === "string" && v.name.startsWith("AzureCloud"))
      .flatMap((v) => {
        const props = (v.properties ?? {}) as { region?: string; addressPrefixes?: string[] };
        return (props.addressPrefixes ?? []).map((cidr) => ({ cidr, region: props.region || null, service: null }));
      });
    return { entries, version: j.changeNumber !== undefined ? String(j.changeNumber) : null };
  },
});

export const CLOUD_FEEDS = [cloudflareFeed, awsFeed, gcpFeed, oracleFeed, digitalOceanFeed, azureFeed] as const;

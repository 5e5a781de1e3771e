// Published ranges of clouds and hosting providers, and of Cloudflare's CDN edge. The snapshots ship (dated
// 2026-08-22, merged CIDRs); a refresh reads each provider's own file, whose region and service are kept.
import { rangeFeed, type Extract } from "./ranges";

const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
const arr = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);

const aws: Extract = (json) => {
  const j = json as { prefixes?: unknown; ipv6_prefixes?: unknown; createDate?: string } | null;
  if (!j || !Array.isArray(j.prefixes)) return null;
  const entries = [
    ...arr(j.prefixes).map((p) => ({ cidr: String(p.ip_prefix), region: str(p.region), service: str(p.service) })),
    ...arr(j.ipv6_prefixes).map((p) => ({
      cidr: String(p.ipv6_prefix),
      region: str(p.region),
      service: str(p.service),
    })),
  ];
  return { entries, version: j.createDate ?? null };
};

const gcp: Extract = (json) => {
  const j = json as { prefixes?: unknown; creationTime?: string } | null;
  if (!j || !Array.isArray(j.prefixes)) return null;
  const entries = arr(j.prefixes).map((p) => ({
    cidr: String(p.ipv4Prefix ?? p.ipv6Prefix),
    region: str(p.scope),
    service: str(p.service),
  }));
  return { entries, version: j.creationTime ?? null };
};

const oracle: Extract = (json) => {
  const j = json as { regions?: unknown; last_updated_timestamp?: string } | null;
  if (!j || !Array.isArray(j.regions)) return null;
  const entries = arr(j.regions).flatMap((r) =>
    arr(r.cidrs).map((c) => ({
      cidr: String(c.cidr),
      region: str(r.region),
      service: Array.isArray(c.tags) ? c.tags.join(",") : null,
    })),
  );
  return { entries, version: j.last_updated_timestamp ?? null };
};

const azure: Extract = (json) => {
  const j = json as { values?: unknown; changeNumber?: number } | null;
  if (!j || !Array.isArray(j.values)) return null;
  const entries = arr(j.values)
    .filter((v) => typeof v.name === "string" && v.name.startsWith("AzureCloud"))
    .flatMap((v) => {
      const props = (v.properties ?? {}) as { region?: string; addressPrefixes?: string[] };
      return (props.addressPrefixes ?? []).map((cidr) => ({ cidr, region: props.region || null, service: null }));
    });
  return { entries, version: j.changeNumber !== undefined ? String(j.changeNumber) : null };
};

const cloudflare: Extract = (json) => {
  const result = (json as { result?: { ipv4_cidrs?: string[]; ipv6_cidrs?: string[]; etag?: string } } | null)?.result;
  if (!result) return null;
  return {
    entries: [...(result.ipv4_cidrs ?? []), ...(result.ipv6_cidrs ?? [])].map((cidr) => ({ cidr })),
    version: result.etag ?? null,
  };
};

export const awsFeed = rangeFeed({
  name: "cloud-aws",
  kind: "cloud",
  provider: "Amazon Web Services",
  list: "AWS ip-ranges.json",
  defaultUrl: "https://ip-ranges.amazonaws.com/ip-ranges.json",
  attribution: "Amazon Web Services, ip-ranges.amazonaws.com",
  extract: aws,
});
export const gcpFeed = rangeFeed({
  name: "cloud-gcp",
  kind: "cloud",
  provider: "Google Cloud",
  list: "Google Cloud cloud.json",
  defaultUrl: "https://www.gstatic.com/ipranges/cloud.json",
  attribution: "Google LLC, gstatic.com/ipranges/cloud.json",
  extract: gcp,
  // The shipped snapshot is Google's goog.json, every range Google holds (Google Cloud's own cloud.json was not in the
  // dated collection): Search, Gmail, Public DNS and Google Cloud's customers alike. Until a refresh reads cloud.json
  // a match names Google, the network's owner, as its platform, never a customer cloud.
  shippedEvidence: {
    kind: "platform",
    provider: "Google",
    list: "Google goog.json (every Google range: Google's own services such as Search, Gmail and Public DNS, and Google Cloud alike)",
  },
  shippedAttribution: "Google LLC, gstatic.com/ipranges/goog.json",
});
// Azure publishes a weekly file whose address changes each week: SERVICE_FEED_CLOUD_AZURE_URL names the current one.
export const azureFeed = rangeFeed({
  name: "cloud-azure",
  kind: "cloud",
  provider: "Microsoft Azure",
  list: "Azure service tags (AzureCloud)",
  defaultUrl: null,
  attribution: "Microsoft Corporation, Azure IP Ranges and Service Tags (Public Cloud)",
  extract: azure,
});
export const oracleFeed = rangeFeed({
  name: "cloud-oracle",
  kind: "cloud",
  provider: "Oracle Cloud",
  list: "Oracle public_ip_ranges.json",
  defaultUrl: "https://docs.oracle.com/iaas/tools/public_ip_ranges.json",
  attribution: "Oracle Corporation, docs.oracle.com/iaas/tools/public_ip_ranges.json",
  extract: oracle,
});
export const digitalOceanFeed = rangeFeed({
  name: "cloud-digitalocean",
  kind: "cloud",
  provider: "DigitalOcean",
  list: "DigitalOcean geofeed",
  defaultUrl: "https://digitalocean.com/geo/google.csv",
  attribution: "DigitalOcean, LLC, digitalocean.com/geo/google.csv",
});
export const linodeFeed = rangeFeed({
  name: "cloud-linode",
  kind: "cloud",
  provider: "Akamai Cloud (Linode)",
  list: "Linode geofeed",
  defaultUrl: "https://geoip.linode.com/",
  attribution: "Akamai Technologies (Linode), geoip.linode.com",
});
export const vultrFeed = rangeFeed({
  name: "cloud-vultr",
  kind: "cloud",
  provider: "Vultr",
  list: "Vultr geofeed",
  defaultUrl: "https://geofeed.constant.com/?text",
  attribution: "The Constant Company (Vultr), geofeed.constant.com",
});
export const cloudflareFeed = rangeFeed({
  name: "cloud-cloudflare",
  kind: "cdn",
  provider: "Cloudflare",
  list: "Cloudflare ips-v4 / ips-v6",
  defaultUrl: "https://api.cloudflare.com/client/v4/ips",
  attribution: "Cloudflare, Inc. (cloudflare.com/ips)",
  extract: cloudflare,
});

export const CLOUD_FEEDS = [
  awsFeed,
  gcpFeed,
  azureFeed,
  oracleFeed,
  digitalOceanFeed,
  linodeFeed,
  vultrFeed,
  cloudflareFeed,
] as const;

// Known CDN and reverse-proxy edges: an address in one of these networks answers for the edge, not the origin.
// Evidence, strongest first: a published edge range, a CNAME into the provider's edge domain, the edge ASN.
// Ranges are the providers' own published lists (Cloudflare /ips, Fastly public-ip-list); ASNs from their PeeringDB
// records. Providers whose ASN also carries ordinary hosting (Amazon, Google, Microsoft) are matched by CNAME only.
import { ipInCidr } from "../net/ip";

export type EdgeKind = "cdn" | "reverse_proxy" | "cloud_load_balancer";
export type Edge = { provider: string; kind: EdgeKind; evidence: string };

type Provider = { provider: string; kind: EdgeKind; ranges?: string[]; asns?: number[]; cnames?: RegExp[] };

const PROVIDERS: Provider[] = [
  {
    provider: "Cloudflare",
    kind: "reverse_proxy",
    ranges: [
      "173.245.48.0/20",
      "103.21.244.0/22",
      "103.22.200.0/22",
      "103.31.4.0/22",
      "141.101.64.0/18",
      "108.162.192.0/18",
      "190.93.240.0/20",
      "188.114.96.0/20",
      "197.234.240.0/22",
      "198.41.128.0/17",
      "162.158.0.0/15",
      "104.16.0.0/13",
      "104.24.0.0/14",
      "172.64.0.0/13",
      "131.0.72.0/22",
      "2400:cb00::/32",
      "2606:4700::/32",
      "2803:f800::/32",
      "2405:b500::/32",
      "2405:8100::/32",
      "2a06:98c0::/29",
      "2c0f:f248::/32",
    ],
    asns: [13335, 209242],
    cnames: [/\.cdn\.cloudflare\.net$/],
  },
  {
    provider: "Fastly",
    kind: "cdn",
    ranges: [
      "23.235.32.0/20",
      "43.249.72.0/22",
      "103.244.50.0/24",
      "103.245.222.0/23",
      "103.245.224.0/24",
      "104.156.80.0/20",
      "140.248.64.0/18",
      "140.248.128.0/17",
      "146.75.0.0/17",
      "151.101.0.0/16",
      "157.52.64.0/18",
      "167.82.0.0/17",
      "167.82.128.0/20",
      "167.82.160.0/20",
      "167.82.224.0/20",
      "172.111.64.0/18",
      "185.31.16.0/22",
      "199.27.72.0/21",
      "199.232.0.0/16",
      "2a04:4e40::/32",
      "2a04:4e42::/32",
    ],
    asns: [54113],
    cnames: [/\.fastly\.net$/, /\.fastlylb\.net$/],
  },
  {
    provider: "Akamai",
    kind: "cdn",
    asns: [
      20940, 16625, 16702, 17204, 18680, 18717, 20189, 21342, 21357, 21399, 22207, 22452, 23454, 23455, 24319, 26008,
      30675, 31107, 31108, 31109, 31110, 31377, 33047, 33905, 34164, 34850, 35204, 35993, 35994, 36183, 39836, 43639,
      55409, 55770, 63949, 133103,
    ],
    cnames: [/\.akamaiedge\.net$/, /\.edgekey\.net$/, /\.edgesuite\.net$/, /\.akamai\.net$/, /\.akamaized\.net$/],
  },
  { provider: "Amazon CloudFront", kind: "cdn", cnames: [/\.cloudfront\.net$/] },
  {
    provider: "AWS Elastic Load Balancing",
    kind: "cloud_load_balancer",
    cnames: [/\.elb\.amazonaws\.com$/, /\.elb\.[a-z0-9-]+\.amazonaws\.com$/],
  },
  { provider: "AWS Global Accelerator", kind: "cloud_load_balancer", cnames: [/\.awsglobalaccelerator\.com$/] },
  {
    provider: "Azure Front Door / Azure CDN",
    kind: "cdn",
    cnames: [/\.azureedge\.net$/, /\.azurefd\.net$/, /\.trafficmanager\.net$/],
  },
  {
    provider: "Google Cloud CDN / Google Front End",
    kind: "cdn",
    cnames: [/^ghs\.googlehosted\.com$/, /\.googlehosted\.com$/],
  },
  { provider: "Imperva (Incapsula)", kind: "reverse_proxy", asns: [19551], cnames: [/\.incapdns\.net$/] },
  { provider: "Sucuri", kind: "reverse_proxy", asns: [30148], cnames: [/\.sucuri\.net$/] },
  {
    provider: "StackPath / Highwinds",
    kind: "cdn",
    asns: [33438, 12989, 20446],
    cnames: [/\.stackpathdns\.com$/, /\.hwcdn\.net$/],
  },
  {
    provider: "Edgio (Limelight)",
    kind: "cdn",
    asns: [22822, 15133],
    cnames: [/\.llnwd\.net$/, /\.edgecastcdn\.net$/],
  },
  { provider: "CDN77", kind: "cdn", asns: [60068], cnames: [/\.cdn77\.org$/] },
  { provider: "Bunny CDN", kind: "cdn", asns: [200325], cnames: [/\.b-cdn\.net$/] },
  { provider: "Vercel", kind: "reverse_proxy", cnames: [/\.vercel-dns\.com$/, /^cname\.vercel-dns\.com$/] },
  {
    provider: "Netlify",
    kind: "reverse_proxy",
    cnames: [/\.netlify\.app$/, /\.netlify\.com$/, /\.netlifyglobalcdn\.com$/],
  },
  { provider: "GitHub Pages", kind: "cdn", cnames: [/\.github\.io$/] },
  { provider: "Heroku router", kind: "reverse_proxy", cnames: [/\.herokudns\.com$/, /\.herokuapp\.com$/] },
  { provider: "Shopify", kind: "reverse_proxy", cnames: [/^shops\.myshopify\.com$/, /\.myshopify\.com$/] },
];

/** Identifies a CDN or reverse-proxy edge for one address, given its ASN and the hostname's CNAME chain. */
export function identifyEdge(address: string, asn: number | null, cnameTargets: readonly string[]): Edge | null {
  for (const p of PROVIDERS) {
    const range = p.ranges?.find((r) => ipInCidr(address, r));
    if (range)
      return {
        provider: p.provider,
        kind: p.kind,
        evidence: `${address} is in ${p.provider}'s published edge range ${range}`,
      };
  }
  for (const p of PROVIDERS) {
    const target = cnameTargets.find((t) => p.cnames?.some((re) => re.test(t)));
    if (target) return { provider: p.provider, kind: p.kind, evidence: `the hostname is a CNAME to ${target}` };
  }
  if (asn !== null) {
    for (const p of PROVIDERS) {
      if (p.asns?.includes(asn))
        return { provider: p.provider, kind: p.kind, evidence: `${address} is announced by AS${asn} (${p.provider})` };
    }
  }
  return null;
}

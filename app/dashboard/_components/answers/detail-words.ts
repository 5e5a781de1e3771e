// An answer's field names and token values as the Details view says them: "proxyReason" reads "Proxy reason",
// "asn" reads "ASN", and a value that is an API token ("exit_list") reads as words ("exit list"). The raw JSON
// beside the Details keeps the API's own names for whoever needs them.
import { dnsStatusWords, isDnsStatus } from "../../../../server/dns/status-words";

/** Words written in capitals (or their own way) wherever they appear in a field name. */
const SPELLED: Record<string, string> = {
  asn: "ASN",
  bgp: "BGP",
  cdn: "CDN",
  cidr: "CIDR",
  cve: "CVE",
  dkim: "DKIM",
  dmarc: "DMARC",
  dns: "DNS",
  dnssec: "DNSSEC",
  http: "HTTP",
  https: "HTTPS",
  id: "id",
  ip: "IP",
  ipv4: "IPv4",
  ipv6: "IPv6",
  isp: "ISP",
  kev: "KEV",
  mx: "MX",
  ns: "NS",
  ptr: "PTR",
  rdap: "RDAP",
  spf: "SPF",
  ssl: "SSL",
  tls: "TLS",
  ttl: "TTL",
  url: "URL",
  utc: "UTC",
  vpn: "VPN",
};

/** Whole field names that read better as another phrase. */
const LABELS: Record<string, string> = { ip: "IP address" };

export function fieldLabel(key: string): string {
  if (Object.hasOwn(LABELS, key)) return LABELS[key];
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase())
    .map((w) => (Object.hasOwn(SPELLED, w) ? SPELLED[w] : w));
  if (words.length === 0) return key;
  words[0] = words[0].charAt(0).toUpperCase() + words[0].slice(1);
  return words.join(" ");
}

/** A snake_case token ("datacenter_range") or a DNS status ("NXDOMAIN") as words; any other text as it is. */
export function valueWords(text: string): string {
  if (/^[A-Z]+$/.test(text) && isDnsStatus(text)) return dnsStatusWords(text);
  return /^[a-z]+(?:_[a-z]+)+$/.test(text) ? text.replace(/_/g, " ") : text;
}

// The kinds of lookup a bulk job runs and what a person calls each: plain data, shared by the server and the
// dashboard (kinds.ts holds how each kind runs).
export const BULK_KINDS = [
  "ip",
  "ip.geo",
  "asn",
  "domain",
  "dns",
  "email.security",
  "blocklists",
  "subdomains",
  "email",
  "host.status",
  "online",
  "cidr",
  "cve",
  "package",
] as const;
export type BulkKind = (typeof BULK_KINDS)[number];
export const BULK_KIND_OR_AUTO = ["auto", ...BULK_KINDS] as const;

export const KIND_LABELS: Record<BulkKind, string> = {
  ip: "IP reputation",
  "ip.geo": "IP geolocation",
  asn: "AS number",
  domain: "Domain intelligence",
  dns: "DNS (A records)",
  "email.security": "Email security (SPF, DKIM, DMARC)",
  blocklists: "Blocklists",
  subdomains: "Subdomains",
  email: "Email check",
  "host.status": "Host status",
  online: "Online check",
  cidr: "CIDR range",
  cve: "CVE",
  package: "Package (purl)",
};

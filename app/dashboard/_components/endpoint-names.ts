// What a person calls each endpoint name the ledger and the lookup history record ("ip.geo", "monitor.run",
// "online-check"): the one table every dashboard page reads, so the overview, analytics, the API keys page and the
// lookup history say "IP geolocation" and "Monitor run" alike. The raw name stays in the API and the CSVs. A name
// missing here shows as it is (test/dashboard/endpoint-names.test.ts checks every metered procedure has one).

const ENDPOINT_NAMES: Readonly<Record<string, string>> = {
  // IP addresses and networks.
  "ip.lookup": "IP lookup",
  "ip.reputation": "IP reputation",
  "ip.geo": "IP geolocation",
  "ip.rdap": "IP registration (RDAP)",
  "ip.abuse": "IP abuse contact",
  "asn.lookup": "AS number lookup",
  "cidr.check": "CIDR range check",
  "blocklists.check": "Blocklist check",
  // Domains, DNS, email and hosts.
  domain: "Domain intelligence",
  "domain.rdap": "Domain registration (RDAP)",
  "domain.abuse": "Domain abuse contact",
  "domain.infrastructure": "Domain infrastructure",
  "domain.subdomains": "Subdomains",
  "dns.lookup": "DNS lookup",
  "email.check": "Email check",
  "email.security": "Email security",
  "phone.lookup": "Phone number lookup",
  "host.ssl": "TLS certificate",
  "host.status": "Host status",
  "online-check": "Online check",
  scan: "Website scan",
  // Vulnerabilities.
  "vulnerabilities.npm": "npm package report",
  "vulnerabilities.package": "Package report",
  "vulnerabilities.cve": "CVE lookup",
  "vulnerabilities.kev": "Known exploited vulnerabilities",
  "vulnerabilities.scan": "Lockfile scan",
  // Fraud.
  assess: "Assessment",
  "device.check": "Device check",
  "captcha.test": "CAPTCHA check",
  "account.reports.create": "Saved report",
  // Work the service does for the workspace, and corrections.
  "bulk.job": "Bulk job",
  "bulk.refund": "Bulk job refund",
  "monitor.run": "Monitor run",
  "monitor.refund": "Monitor run refund",
  "admin.usage.adjust": "Operator adjustment",
};

/** The endpoint's plain name, or null when it has none (then show the name as recorded). */
export function endpointName(endpoint: string): string | null {
  return Object.hasOwn(ENDPOINT_NAMES, endpoint) ? ENDPOINT_NAMES[endpoint]! : null;
}

/** The plain name, else the recorded one: for labels that must always say something. */
export const endpointLabel = (endpoint: string): string => endpointName(endpoint) ?? endpoint;

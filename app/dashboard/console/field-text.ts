// Human labels and examples for the console's inputs, by parameter name. The API's own description (from the
// OpenAPI document) still explains each one; this adds what a person types first.
const LABELS: Record<string, string> = {
  ip: "IP address",
  asn: "AS number",
  domain: "Domain",
  host: "Host name",
  email: "Email address",
  url: "URL",
  cidr: "CIDR range",
  targets: "Targets",
  type: "Record type",
  selectors: "DKIM selectors",
  cveId: "CVE id",
  package: "Package name",
  ecosystem: "Ecosystem",
  coordinate: "Package coordinate",
  version: "Version",
  query: "Search text",
  vendor: "Vendor",
  product: "Product",
  cve: "CVE id",
  cwe: "CWE id",
  ransomware: "Ransomware use",
  added_since: "Added since",
  added_until: "Added until",
  limit: "Page size",
  offset: "Skip",
  provider: "CAPTCHA provider",
  token: "CAPTCHA token",
  secret: "Provider secret",
  remote_ip: "Visitor IP address",
  expected_hostname: "Expected host name",
  expected_action: "Expected action",
  min_score: "Minimum score",
  visibility: "Visibility",
  number: "Phone number",
  country: "Country",
};

const EXAMPLES: Record<string, string> = {
  ip: "8.8.8.8",
  asn: "15169",
  domain: "example.com",
  host: "example.com",
  email: "jane@example.com",
  url: "https://example.com",
  cidr: "8.8.8.0/24",
  type: "MX",
  selectors: "google,selector1",
  cveId: "CVE-2021-44228",
  package: "lodash",
  ecosystem: "npm",
  coordinate: "lodash",
  version: "4.17.20",
  query: "log4j",
  vendor: "Apache",
  product: "Log4j",
  cve: "CVE-2021-44228",
  cwe: "CWE-502",
  added_since: "2024-01-01",
  added_until: "2024-12-31",
  limit: "25",
  offset: "0",
  remote_ip: "203.0.113.7",
  expected_hostname: "example.com",
  min_score: "0.5",
  number: "+447400123456",
  country: "GB",
};

export function fieldLabel(name: string): string {
  if (LABELS[name]) return LABELS[name];
  const words = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function fieldExample(name: string): string | null {
  return EXAMPLES[name] ?? null;
}

/** Example JSON values for body properties, where the name alone says what fits. */
export function bodyExample(name: string): unknown {
  if (name === "targets") return ["8.8.8.8", "example.com"];
  return EXAMPLES[name];
}

/**
 * A URL pasted into a domain or host field becomes what the field takes ("https://www.example.com/path?q" is
 * `www.example.com` for a domain, and so is "www.example.com/path"; a host keeps a port it names: "https://example.com:8443/" is `example.com:8443`).
 * Anything else is returned as it was typed (trimmed), for the API to judge.
 */
export function fieldValueFromPaste(name: string, value: string): string {
  const typed = value.trim();
  if (name !== "domain" && name !== "host" && name !== "expected_hostname") return value;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed);
  // "www.example.com/pricing" (an address bar's text without its scheme) is a URL too.
  if (!hasScheme && !/^[^\s/:@]+\.[^\s/:@]+(:\d+)?\//.test(typed)) return typed;
  try {
    const url = new URL(hasScheme ? typed : `https://${typed}`);
    return name === "host" ? url.host : url.hostname;
  } catch {
    return typed;
  }
}

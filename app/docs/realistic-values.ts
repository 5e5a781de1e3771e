// Values a real answer holds, by property name ("parent.name" first, then the name alone), for the reference's
// examples: what 8.8.8.8, AS15169 and example.com look like in an answer, instead of a property's own name
// repeated as its value ("city": "city"). Only values, never shapes: the shape still comes from the schema.
const BY_NAME: Record<string, unknown> = {
  "country.code": "US",
  "country.name": "United States",
  country: "US",
  countryCode: "US",
  region: "California",
  district: "Santa Clara County",
  city: "Mountain View",
  postalCode: "94043",
  latitude: 37.4056,
  longitude: -122.0775,
  timezone: "America/Los_Angeles",
  scope: "public",
  organization: "Google LLC",
  "asn.number": 15169,
  asn: 15169,
  "asn.name": "GOOGLE",
  registry: "arin",
  holder: "Google LLC",
  handle: "NET-8-8-8-0-2",
  "route.start": "8.8.8.0",
  "route.end": "8.8.8.255",
  range: "8.8.8.0/24",
  cidr: "8.8.8.0/24",
  prefix: "8.8.8.0/24",
  provider: "Google",
  "source.name": "DB-IP IP to City Lite",
  license: "CC BY 4.0",
  attribution: "IP Geolocation by DB-IP",
  attributionUrl: "https://db-ip.com",
  hostname: "dns.google",
  ptr: "dns.google",
  issuer: "WR2",
  subject: "dns.google",
  protocol: "TLSv1.3",
  exchange: "mx.example.com",
  grade: "A",
  score: 12,
  risk: "low",
  level: "low",
  severity: "critical",
  cvss: 10,
  action: "allow",
  event: "signup",
  status: 200,
  list: "spamhaus-zen",
  feed: "tor-exit-nodes",
  reason: "Found in the shipped data for this address.",
  detail: "Not listed.",
  message: "Not listed.",
  basis: ["asn"],
  matchedOn: "ip",
  answeredBy: "8.8.8.8",
  userAgent:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
};

/** A realistic value for `name` under `parent`, or undefined when none is known. */
export function realisticValue(name: string | undefined, parent?: string): unknown {
  if (!name) return undefined;
  if (parent && BY_NAME[`${parent}.${name}`] !== undefined) return BY_NAME[`${parent}.${name}`];
  return BY_NAME[name];
}

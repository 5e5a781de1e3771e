// What API tooling expects of the served document beyond what the generator writes (Spectral `spectral:oas` and
// Redocly `recommended` run on it in CI, `npm run lint:openapi`): every tag used is declared with a description,
// contact and licence are stated, the generator's unused flat-error schemas are dropped (every error response
// refers to the spec's `Error` instead), and every 503 documents its Retry-After, as 429 does.
import { setting } from "../../env";

type Json = Record<string, any>;

const TAG_DESCRIPTIONS: Record<string, string> = {
  Assessment: "Fraud risk scoring of signups, logins, checkouts, forms and API calls, with custom rules",
  IP: "IP geolocation, network, reputation and registration data",
  ASN: "Autonomous systems: organisation, prefixes and reputation",
  Domain: "Domain overview: registration, DNS, email authentication, infrastructure and risk",
  Domains: "Domain registration, subdomains and related lookups",
  DNS: "DNS record lookups and reverse DNS",
  Email: "Email address checks and domain email-authentication posture",
  Hosts: "Host reachability, HTTP status, TLS certificates and the online check",
  Blocklists: "DNS blocklist checks for IPs and domains, and CIDR range checks",
  Vulnerabilities: "Package and CVE vulnerability reports",
  "Device and CAPTCHA": "CAPTCHA token diagnostics and device signals",
  Links: "Protected short links with destination checks",
  Rules: "Custom assessment rules of the workspace",
  Lists: "Named lists of addresses, emails, users, devices, countries and networks that rules test with in_list()",
  Cases: "The review queue: cases opened by review and challenge decisions, assigned and resolved by people",
  Webhooks: "Webhook endpoints, signing secrets and delivery logs",
  Workspace: "Workspace usage, events, analytics and saved reports",
};

const RETRY_AFTER = { description: "Seconds to wait before retrying", schema: { type: "integer", minimum: 0 } };

export function completeForTools(doc: Json): Json {
  const used = new Set<string>();
  for (const ops of Object.values<Json>(doc.paths ?? {})) {
    for (const op of Object.values<Json>(ops)) {
      if (!op || typeof op !== "object") continue;
      for (const t of op.tags ?? []) used.add(t);
      const unavailable = op.responses?.["503"];
      if (unavailable) unavailable.headers = { ...(unavailable.headers ?? {}), "Retry-After": RETRY_AFTER };
    }
  }
  doc.tags = [...used].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `${name} operations` }));
  const base = (setting("SERVICE_PUBLIC_URL") ?? "http://localhost:3000").replace(/\/+$/, "");
  doc.info = {
    ...doc.info,
    contact: doc.info?.contact ?? { name: "Operator of this service", url: `${base}/docs` },
    license: doc.info?.license ?? {
      name: "Proprietary: use under the operator's terms of service",
      url: `${base}/docs`,
    },
  };
  const schemas: Json = doc.components?.schemas ?? {};
  for (const name of Object.keys(schemas)) if (name.startsWith("error.")) delete schemas[name];
  return doc;
}

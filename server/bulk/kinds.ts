// The lookup kinds a bulk job can run, each as the metered procedure that answers it on /v1 (so an item is the
// same lookup, with the same input rules, SSRF checks, history and answer), how a target becomes its input, and
// the few fields of its answer shown in the job's table and CSV. `auto` picks a kind from the target's shape. What an
// item costs is its procedure's cost for that input (server/api/charging.ts bulkItemUnits).
import { PackageURL } from "packageurl-js";
import { parseIpv4Cidr } from "../cidr/range";
import { parseIpStrict } from "../net/ip-parse";
import { CVE_ID_PATTERN } from "../vulnerabilities/coordinates";
import { KIND_LABELS, type BulkKind } from "./kind-labels";

export { BULK_KINDS, BULK_KIND_OR_AUTO, KIND_LABELS, type BulkKind } from "./kind-labels";

type Summary = Record<string, string | number | boolean | null>;

interface KindSpec {
  /** What a person calls it (dashboard, docs). */
  label: string;
  /** The tRPC path of the metered procedure that runs one item. */
  procedure: string;
  /** The procedure's input for a target, or a reason the target does not fit this kind. */
  input(target: string): Record<string, unknown> | { error: string };
  /** A few fields of the answer for the table and the CSV. */
  summary(out: any): Summary;
}

const risk = (out: any): Summary => ({ risk_score: out?.risk?.score ?? null, risk_level: out?.risk?.level ?? null });

function hostOf(target: string): string {
  const t = target.trim();
  if (/^https?:\/\//i.test(t)) {
    try {
      const u = new URL(t);
      return u.port ? `${u.hostname}:${u.port}` : u.hostname;
    } catch {
      return t;
    }
  }
  return t;
}

const PURL_ECOSYSTEM: Record<string, string> = {
  npm: "npm",
  pypi: "pypi",
  maven: "maven",
  golang: "go",
  composer: "composer",
};

export function packageInput(target: string): Record<string, unknown> | { error: string } {
  let p: PackageURL;
  try {
    p = PackageURL.fromString(target.trim());
  } catch (err) {
    return {
      error: `not a package URL (${(err as Error).message.replace(/\.$/, "")}); write e.g. pkg:npm/lodash@4.17.20`,
    };
  }
  const ecosystem = PURL_ECOSYSTEM[p.type];
  if (!ecosystem) return { error: `package type "${p.type}" is not supported (npm, pypi, maven, golang, composer)` };
  const coordinate =
    p.type === "maven" ? `${p.namespace ?? ""}:${p.name}` : p.namespace ? `${p.namespace}/${p.name}` : p.name;
  return { ecosystem, coordinate, ...(p.version ? { version: p.version } : {}) };
}

/** The IP answer's privacy classification in two cells: the flags that hold ("tor vpn", or "none") and the service. */
const PRIVACY_FLAGS = ["tor", "vpn", "relay", "hosting", "cdn", "crawler", "monitor"] as const;
function privacyOf(o: any): { privacy: string | null; service: string | null } {
  const p = o?.privacy;
  if (!p || typeof p !== "object") return { privacy: null, service: null };
  const on = PRIVACY_FLAGS.filter((f) => p[f] === true);
  return { privacy: on.length ? on.join(" ") : "none", service: typeof p.service === "string" ? p.service : null };
}

export const KINDS: Record<BulkKind, KindSpec> = {
  ip: {
    label: KIND_LABELS["ip"],
    procedure: "ip.ipLookup",
    input: (t) => ({ ip: t.trim() }),
    summary: (o) => ({
      asn: o?.asn?.number ?? null,
      organization: o?.asn?.organization ?? null,
      network_type: o?.network?.type ?? null,
      ...privacyOf(o),
      ...risk(o),
    }),
  },
  "ip.geo": {
    label: KIND_LABELS["ip.geo"],
    procedure: "geo.ipGeo",
    input: (t) => ({ ip: t.trim() }),
    summary: (o) => ({ country: o?.country?.code ?? null, city: o?.city ?? null }),
  },
  asn: {
    label: KIND_LABELS["asn"],
    procedure: "asn.asnLookup",
    input: (t) => ({ asn: t.trim() }),
    // What GET /asn/{asn} answers (it has no risk score): who runs it, where and at which registry, whether it is a
    // hosting network, and whether a list (Spamhaus ASN-DROP) holds it (null while a list holds no data).
    summary: (o) => ({
      organization: o?.organization ?? o?.name ?? null,
      country: o?.country ?? null,
      registry: o?.registry ?? null,
      hosting: o?.hosting?.value ?? null,
      listed: Array.isArray(o?.lists)
        ? o.lists.some((l: any) => l?.listed === true)
          ? true
          : o.lists.every((l: any) => l?.listed === false)
            ? false
            : null
        : null,
    }),
  },
  domain: {
    label: KIND_LABELS["domain"],
    procedure: "domain.domainIntel",
    input: (t) => ({ domain: t.trim() }),
    summary: (o) => ({ registrar: o?.registration?.registrar ?? o?.registrar ?? null, ...risk(o) }),
  },
  dns: {
    label: KIND_LABELS["dns"],
    procedure: "dns.dnsLookup",
    input: (t) => ({ domain: t.trim(), type: "A" }),
    summary: (o) => ({
      status: o?.status ?? null,
      records: Array.isArray(o?.records)
        ? o.records.map((r: any) => String(r?.value ?? r?.data ?? "")).join(" ")
        : null,
    }),
  },
  "email.security": {
    label: KIND_LABELS["email.security"],
    procedure: "email.emailSecurity",
    input: (t) => ({ domain: t.trim() }),
    summary: (o) => ({
      spf: o?.spf?.status ?? (o?.spf ? "present" : null),
      dmarc: o?.dmarc?.policy ?? o?.dmarc?.status ?? null,
    }),
  },
  blocklists: {
    label: KIND_LABELS["blocklists"],
    procedure: "blocklists.blocklistsCheck",
    input: (t) => ({ targets: [t.trim()] }),
    summary: (o) => ({
      status: o?.results?.[0]?.status ?? null,
      listed_on: Array.isArray(o?.results?.[0]?.listedOn) ? o.results[0].listedOn.join(" ") : null,
    }),
  },
  subdomains: {
    label: KIND_LABELS["subdomains"],
    procedure: "domain.domainSubdomains",
    input: (t) => ({ domain: t.trim() }),
    summary: (o) => ({ names: o?.total ?? (Array.isArray(o?.subdomains) ? o.subdomains.length : null) }),
  },
  email: {
    label: KIND_LABELS["email"],
    procedure: "email.emailCheck",
    input: (t) => (t.includes("@") ? { email: t.trim() } : { error: "not an email address" }),
    summary: (o) => ({
      disposable: o?.disposable ?? null,
      free_provider: o?.freeProvider ?? null,
      mx: o?.mx?.status ?? null,
      risk_score: o?.score ?? null,
      risk_level: o?.riskLevel ?? null,
    }),
  },
  "host.status": {
    label: KIND_LABELS["host.status"],
    procedure: "hosts.hostStatus",
    input: (t) => ({ host: hostOf(t) }),
    summary: (o) => ({ reachable: o?.reachable ?? null, status: typeof o?.status === "number" ? o.status : null }),
  },
  online: {
    label: KIND_LABELS["online"],
    procedure: "hosts.onlineCheck",
    input: (t) => ({ url: t.trim() }),
    summary: (o) => ({ online: o?.online ?? o?.verdict ?? null, status: o?.status ?? null }),
  },
  cidr: {
    label: KIND_LABELS.cidr,
    procedure: "cidr.cidrCheck",
    input: (t) => ({ cidr: t.trim() }),
    // `incomplete`: the addresses no blocklist answered, whose units went back (the item's `refunded`).
    summary: (o) => ({
      checked: o?.summary?.checked ?? null,
      listed: o?.summary?.listed ?? null,
      incomplete: o?.summary?.incomplete ?? null,
    }),
  },
  cve: {
    label: KIND_LABELS["cve"],
    procedure: "vulnerabilities.cve",
    input: (t) => ({ cveId: t.trim().toUpperCase() }),
    summary: (o) => ({
      known_exploited: o?.knownExploited ? true : false,
      advisories: Array.isArray(o?.advisories) ? o.advisories.length : null,
    }),
  },
  package: {
    label: KIND_LABELS["package"],
    procedure: "vulnerabilities.packageReport",
    input: packageInput,
    summary: (o) => ({
      version: o?.version?.selected ?? null,
      affected: o?.version?.affected ?? null,
      advisories: o?.pagination?.total ?? null,
      known_exploited: Array.isArray(o?.knownExploited) ? o.knownExploited.length > 0 : null,
    }),
  },
};

/** The kind `auto` picks for a target, from its shape alone (no lookup), or null when nothing fits. */
export function detectKind(target: string): BulkKind | null {
  const t = target.trim();
  if (!t) return null;
  if (/^pkg:/i.test(t)) return "package";
  if (CVE_ID_PATTERN.test(t)) return "cve";
  if (/^https?:\/\//i.test(t)) return "host.status";
  if (/^AS\d{1,10}$/i.test(t)) return "asn";
  if (parseIpStrict(t)) return "ip";
  if (t.includes("/") && !("error" in parseIpv4Cidr(t))) return "cidr";
  if (/^[^@\s]+@[^@\s]+$/.test(t)) return "email";
  if (
    /^[a-z0-9\u00a1-\uffff]([a-z0-9\u00a1-\uffff-]*[a-z0-9\u00a1-\uffff])?(\.[a-z0-9\u00a1-\uffff]([a-z0-9\u00a1-\uffff-]*[a-z0-9\u00a1-\uffff])?)+\.?$/i.test(
      t,
    )
  )
    return "domain";
  return null;
}

// Monitor checks in words: what each check watches (for the form), and each stored state (server/monitors/checks/*)
// as a sentence, so the dashboard's list, detail and timeline and the alert emails never show the raw state. Pure:
// shared with the dashboard's client components (eslint.config.mjs SHARED_WITH_CLIENT).
import { dnsStatusWords, isDnsStatus } from "../dns/status-words";
import {
  EMAIL_AUTHENTICATION_CHECKS,
  EMAIL_TRANSPORT_CHECKS,
  OVERALL_WORDS,
  VERDICT_WORDS,
  type Verdict,
} from "../email/security/verdict-words";
import type { CheckType } from "./checks/types";

export const CHECK_WORDS: Record<CheckType, { label: string; help: string }> = {
  tls: { label: "TLS certificate", help: "Expiry against your thresholds, the chain, the name and the protocol." },
  scan: { label: "Website grade", help: "A private scan of the site; D or E is a warning, F or a failed scan is bad." },
  reachability: { label: "Reachability", help: "Whether the host answers at all." },
  blocklists: { label: "Blocklists", help: "Whether the host or its address appears on a blocklist." },
  ct: { label: "New certificates", help: "Names newly seen in certificate transparency logs (never bad in itself)." },
  dns: { label: "DNS records", help: "Any change in the chosen record types." },
  email_security: { label: "Email security", help: "SPF, DKIM, DMARC and the rest of the email security answer." },
  packages: { label: "Packages", help: "Known vulnerabilities and malware in the listed package versions." },
  project: {
    label: "Project",
    help: "The project's latest package list scanned again; a new finding alerts (watch it from Projects).",
  },
};

export type Severity = "ok" | "warning" | "critical";

export const SEVERITY_WORDS: Record<Severity | "none", string> = {
  ok: "OK",
  warning: "Warning",
  critical: "Problem",
  none: "Not run yet",
};

type State = Record<string, unknown> | null | undefined;
const list = (xs: unknown) => (Array.isArray(xs) ? (xs as string[]) : []);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function tlsWords(s: Record<string, unknown>): string {
  if (s.connected === false) return `no TLS connection (${String(s.error ?? "unknown error").replace(/_/g, " ")})`;
  const parts: string[] = [];
  const expiry = String(s.expiry ?? "ok");
  if (expiry === "expired") parts.push("certificate expired");
  else if (expiry.startsWith("within_")) parts.push(`certificate expires within ${expiry.split("_")[1]} days`);
  else parts.push("certificate valid");
  if (s.chain_valid === false) parts.push("chain does not verify");
  if (s.name_matches === false) parts.push("name does not match");
  if (s.protocol) parts.push(String(s.protocol));
  return parts.join(", ");
}

/** Each record type's records, or its status in words ("MX: this name does not exist (NXDOMAIN)"). */
function dnsWords(s: Record<string, unknown>): string {
  const entries = Object.entries(s).map(([type, v]) => [type, v as { status?: string; records?: string[] }] as const);
  const statuses = new Set(entries.map(([, r]) => r.status?.toUpperCase()));
  // A name that does not exist does not exist for every type: said once.
  if (entries.length && statuses.size === 1 && statuses.has("NXDOMAIN")) return lowerFirst(dnsStatusWords("NXDOMAIN"));
  return entries
    .map(([type, r]) => {
      const status = r.status?.toUpperCase();
      const records = list(r.records);
      if (
        status === "NODATA" ||
        ((!status || status === "NOERROR" || status === "OK" || status === "FOUND") && !records.length)
      )
        return `${type} none`;
      if (status && status !== "NOERROR" && status !== "OK" && status !== "FOUND")
        return `${type}: ${lowerFirst(isDnsStatus(status) ? dnsStatusWords(status) : status.toLowerCase().replace(/_/g, " "))}`;
      return `${type} ${records.join(", ")}`;
    })
    .join("; ");
}
const lowerFirst = (t: string) => t.charAt(0).toLowerCase() + t.slice(1);

const EMAIL_CHECK_NAMES = new Map<string, string>([...EMAIL_AUTHENTICATION_CHECKS, ...EMAIL_TRANSPORT_CHECKS]);
const verdictWords = (v: unknown) => VERDICT_WORDS[v as Verdict] ?? VERDICT_WORDS.unknown;

/** The overall verdict first, then each check by its name with its verdict in words, then the DMARC policy and the
 *  DKIM selectors ("Needs attention: SPF in place, …, TLS reporting needs attention; DMARC policy reject; …"). */
function emailWords(s: Record<string, unknown>): string {
  const known = [...EMAIL_CHECK_NAMES.keys()];
  const checks = Object.entries(s)
    .filter(([k, v]) => typeof v === "string" && k !== "dmarc_policy" && k !== "overall")
    .sort(([a], [b]) => (known.indexOf(a) + 1 || 99) - (known.indexOf(b) + 1 || 99))
    .map(([k, v]) => `${EMAIL_CHECK_NAMES.get(k) ?? k.replace(/_/g, " ")} ${verdictWords(v)}`);
  const policy = s.dmarc_policy ? `DMARC policy ${String(s.dmarc_policy)}` : "no DMARC policy";
  const selectors = list(s.dkim_selectors);
  const details = [
    checks.join(", "),
    policy,
    selectors.length ? `DKIM keys at ${selectors.join(", ")}` : "no DKIM key found",
  ]
    .filter(Boolean)
    .join("; ");
  return typeof s.overall === "string"
    ? `${OVERALL_WORDS[s.overall as Verdict] ?? OVERALL_WORDS.unknown}: ${details}`
    : details;
}

function packagesWords(s: Record<string, unknown>): string {
  return Object.entries(s)
    .map(([pkg, v]) => {
      const r = v as { advisories?: string[]; malware?: boolean };
      if (r.malware) return `${pkg}: malware reported`;
      const n = list(r.advisories).length;
      return n ? `${pkg}: ${plural(n, "advisory", "advisories")}` : `${pkg}: no advisory`;
    })
    .join("; ");
}

/**
 * A project finding's state key (`npm:@walk/thing advisory GHSA-late-0003-cccc`, checks/project.ts stateKey) in words:
 * "@walk/thing (npm): advisory GHSA-late-0003-cccc". A resolution carries only the key.
 */
function findingKeyWords(key: string): string {
  const m = /^([^:\s]+):(\S+) (\S+)(?: (\S+))?$/.exec(key);
  if (!m) return key || "a finding";
  const [, ecosystem, name, kind, id] = m;
  return `${name} (${ecosystem}): ${kind!.replace(/_/g, " ")}${id ? ` ${id}` : ""}`;
}

/** A project check's state (its findings), one of its alerts (a finding) or a resolution. */
function projectWords(s: Record<string, unknown>): string {
  if (s.resolved === true) return `${findingKeyWords(String(s.finding ?? ""))} no longer found`;
  if (typeof s.finding === "string") {
    const fix = s.fixed_version ? `, fixed in ${String(s.fixed_version)}` : "";
    return `${String(s.name)}@${String(s.version)}: ${String(s.summary ?? s.kind)}${fix}`;
  }
  const n = Object.keys((s.findings as Record<string, unknown> | undefined) ?? {}).length;
  return n ? plural(n, "finding") : "no finding";
}

/** A check's state as a short sentence ("certificate expires within 7 days, TLSv1.3"). */
export function stateWords(check: string, s: State): string {
  if (!s) return "no result";
  // A check that could not run three times in a row (server/monitors: check_failing) is said as such, whatever its type.
  if (s.check_failing === true) {
    const runs = typeof s.failed_runs === "number" ? s.failed_runs : 3;
    const since =
      typeof s.since === "string" ? ` since ${new Date(s.since).toISOString().slice(0, 16).replace("T", " ")} UTC` : "";
    return `could not run ${runs} times in a row${since}${s.reason ? `: ${String(s.reason)}` : ""}`;
  }
  if (s.check_failing === false) return "runs again";
  switch (check) {
    case "tls":
      return tlsWords(s);
    case "scan":
      return s.status === "done"
        ? `grade ${String(s.grade ?? "none")}`
        : s.status === "failed"
          ? "scan failed"
          : "scan still running";
    case "reachability":
      return s.online ? "online" : "offline";
    case "blocklists": {
      const on = list(s.listed_on);
      return on.length ? `listed on ${on.join(", ")}` : "not listed";
    }
    case "ct": {
      const names = list(s.names);
      return names.length ? `${plural(names.length, "name")} seen: ${names.slice(0, 5).join(", ")}` : "no names seen";
    }
    case "dns":
      return dnsWords(s);
    case "email_security":
      return emailWords(s);
    case "packages":
      return packagesWords(s);
    case "project":
      return projectWords(s);
    case "run":
      return s.skipped ? "run skipped" : "runs paid again";
    default:
      return "state recorded";
  }
}

export const checkLabel = (check: string) =>
  check === "run" ? "Run" : (CHECK_WORDS[check as CheckType]?.label ?? check);

/** "2 h ago", "3 d ago", "just now". */
export function ago(iso: string, now = Date.now()): string {
  const minutes = Math.round((now - new Date(iso).getTime()) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}

export const INTERVAL_WORDS: Record<string, string> = {
  "1h": "every hour",
  "6h": "every 6 hours",
  "12h": "every 12 hours",
  "24h": "every day",
  "7d": "every week",
};

// DMARC (RFC 7489): the policy record at _dmarc.<domain>, or at the organizational domain when the name itself has
// none (section 6.6.3), parsed into tags with a verdict.
import { getDomain } from "tldts";
import type { DnsQueryResult } from "../../providers/dns";
import { fetchPolicyTxt } from "./txt";
import type { CheckStatus } from "./verdict";

export type DmarcPolicy = "none" | "quarantine" | "reject";

export interface DmarcCheck {
  status: CheckStatus;
  reason: string;
  record: string | null;
  /** The name the record was found at (differs from _dmarc.<domain> when inherited from the organizational domain). */
  recordName: string | null;
  inherited: boolean;
  policy: DmarcPolicy | null;
  subdomainPolicy: DmarcPolicy | null;
  pct: number | null;
  rua: string[];
  ruf: string[];
  adkim: "r" | "s" | null;
  aspf: "r" | "s" | null;
  tags: Record<string, string>;
  errors: string[];
}

const POLICIES = new Set(["none", "quarantine", "reject"]);
const DMARC_TAG = /^v=DMARC1\s*(;|$)/i;

export function parseDmarc(record: string): { tags: Record<string, string>; errors: string[] } {
  const tags: Record<string, string> = {};
  const errors: string[] = [];
  for (const part of record.split(";")) {
    const t = part.trim();
    if (!t) continue;
    const eq = t.indexOf("=");
    if (eq < 0) {
      errors.push(`Malformed tag "${t}".`);
      continue;
    }
    tags[t.slice(0, eq).trim().toLowerCase()] = t.slice(eq + 1).trim();
  }
  if (tags.p !== undefined && !POLICIES.has(tags.p.toLowerCase()))
    errors.push(`p=${tags.p} is not none, quarantine or reject.`);
  if (tags.sp !== undefined && !POLICIES.has(tags.sp.toLowerCase()))
    errors.push(`sp=${tags.sp} is not none, quarantine or reject.`);
  if (tags.pct !== undefined && !/^(100|[1-9]?\d)$/.test(tags.pct))
    errors.push(`pct=${tags.pct} is not an integer 0..100.`);
  return { tags, errors };
}

const uris = (v: string | undefined) =>
  v
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
const policyOf = (v: string | undefined) =>
  v && POLICIES.has(v.toLowerCase()) ? (v.toLowerCase() as DmarcPolicy) : null;
const alignment = (v: string | undefined) => (v === "s" || v === "r" ? v : null);

export async function checkDmarc(domain: string): Promise<{ dmarc: DmarcCheck; query: DnsQueryResult }> {
  let name = `_dmarc.${domain}`;
  let txt = await fetchPolicyTxt(name, DMARC_TAG);
  let inherited = false;
  const org = getDomain(domain, { allowPrivateDomains: false });
  if (txt.answered && txt.matches.length === 0 && org && org !== domain) {
    const orgTxt = await fetchPolicyTxt(`_dmarc.${org}`, DMARC_TAG);
    if (orgTxt.matches.length > 0 || !orgTxt.answered) {
      name = `_dmarc.${org}`;
      txt = orgTxt;
      inherited = true;
    }
  }
  const empty: DmarcCheck = {
    status: "fail",
    reason: "",
    record: null,
    recordName: null,
    inherited,
    policy: null,
    subdomainPolicy: null,
    pct: null,
    rua: [],
    ruf: [],
    adkim: null,
    aspf: null,
    tags: {},
    errors: [],
  };
  const out = (d: Partial<DmarcCheck> & { status: CheckStatus; reason: string }) => ({
    dmarc: { ...empty, ...d },
    query: txt.query,
  });
  if (!txt.answered)
    return out({ status: "unknown", reason: `The TXT lookup of ${name} failed (${txt.query.status}); retry later.` });
  if (txt.matches.length === 0) {
    return out({
      status: "fail",
      reason: `No DMARC record: publish "v=DMARC1; p=none; rua=mailto:dmarc@${domain}" at _dmarc.${domain}, read the reports, then move to p=quarantine or p=reject.`,
    });
  }
  if (txt.matches.length > 1)
    return out({
      status: "fail",
      record: txt.matches.join(" | "),
      recordName: name,
      reason: "More than one DMARC record: receivers ignore them all. Keep one.",
    });
  const record = txt.matches[0];
  const { tags, errors } = parseDmarc(record);
  const policy = policyOf(tags.p);
  const isOrgRecord = inherited || !org || org === domain;
  const base: Partial<DmarcCheck> = {
    record,
    recordName: name,
    tags,
    errors,
    policy,
    subdomainPolicy: policyOf(tags.sp) ?? (isOrgRecord ? policy : null),
    pct: tags.pct !== undefined && /^\d+$/.test(tags.pct) ? Number(tags.pct) : policy ? 100 : null,
    rua: uris(tags.rua),
    ruf: uris(tags.ruf),
    adkim: alignment(tags.adkim),
    aspf: alignment(tags.aspf),
  };
  // When a domain inherits the organizational record, the subdomain policy is what receivers apply to it.
  const effective = inherited ? (base.subdomainPolicy ?? policy) : policy;
  if (errors.length || !policy) {
    return out({
      ...base,
      status: "fail",
      reason: `The record is invalid${policy ? "" : " (p= is missing or wrong)"}: ${errors.join(" ") || "add p=none, p=quarantine or p=reject"}.`,
    });
  }
  if (effective === "none") {
    return out({
      ...base,
      status: "warn",
      reason: `Policy ${inherited ? "sp" : "p"}=none only monitors: spoofed mail is still delivered. Once reports show your senders pass, move to p=quarantine, then p=reject.`,
    });
  }
  if ((base.pct ?? 100) < 100)
    return out({
      ...base,
      status: "warn",
      reason: `pct=${base.pct}: the policy applies to only ${base.pct}% of failing mail. Raise pct to 100.`,
    });
  if (!inherited && base.subdomainPolicy === "none")
    return out({
      ...base,
      status: "warn",
      reason: "sp=none leaves subdomains open to spoofing. Set sp=quarantine or sp=reject, or remove sp to inherit p.",
    });
  if ((base.rua ?? []).length === 0)
    return out({
      ...base,
      status: "warn",
      reason: `Policy p=${effective} is enforced, but no rua= address receives aggregate reports: add rua=mailto:dmarc@${domain} to see who sends as you.`,
    });
  return out({
    ...base,
    status: "pass",
    reason: `DMARC is enforced (p=${effective}${inherited ? `, inherited from ${org}` : ""}) with aggregate reports.`,
  });
}

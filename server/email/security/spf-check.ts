// The SPF part of /email/security: the record, its terms, the lookup count and a verdict a person can act on.
import {
  parseSpf,
  walkSpf,
  SPF_LOOKUP_LIMIT,
  SPF_VOID_LOOKUP_LIMIT,
  type Qualifier,
  type SpfInclude,
  type SpfTerm,
} from "./spf";
import { fetchPolicyTxt } from "./txt";
import type { CheckStatus } from "./verdict";
import type { DnsQueryResult } from "../../providers/dns";

export interface SpfCheck {
  status: CheckStatus;
  reason: string;
  record: string | null;
  mechanisms: SpfTerm[];
  modifiers: { name: string; value: string }[];
  allQualifier: Qualifier | null;
  allMeaning: string | null;
  dnsLookups: number;
  dnsLookupLimit: number;
  voidLookups: number;
  includes: SpfInclude[];
  errors: string[];
}

const ALL_MEANING: Record<Qualifier, string> = {
  "-": "fail: mail from unlisted servers should be rejected",
  "~": "softfail: mail from unlisted servers is accepted but marked suspicious",
  "?": "neutral: the domain makes no statement about unlisted servers",
  "+": "pass: every server on the internet may send as this domain",
};

export async function checkSpf(
  domain: string,
  dmarcEnforced: Promise<boolean>,
): Promise<{ spf: SpfCheck; query: DnsQueryResult }> {
  const txt = await fetchPolicyTxt(domain, /^v=spf1(\s|$)/i);
  const empty: SpfCheck = {
    status: "fail",
    reason: "",
    record: null,
    mechanisms: [],
    modifiers: [],
    allQualifier: null,
    allMeaning: null,
    dnsLookups: 0,
    dnsLookupLimit: SPF_LOOKUP_LIMIT,
    voidLookups: 0,
    includes: [],
    errors: [],
  };
  if (!txt.answered) {
    return {
      spf: { ...empty, status: "unknown", reason: `The TXT lookup failed (${txt.query.status}); retry later.` },
      query: txt.query,
    };
  }
  if (txt.matches.length === 0) {
    return {
      spf: {
        ...empty,
        reason: `No SPF record: publish a TXT record at ${domain} such as "v=spf1 include:<your mail provider> -all" (or "v=spf1 -all" if the domain sends no mail).`,
      },
      query: txt.query,
    };
  }
  if (txt.matches.length > 1) {
    return {
      spf: {
        ...empty,
        record: txt.matches.join(" | "),
        reason: `${txt.matches.length} SPF records: receivers treat this as permerror. Merge them into one TXT record.`,
      },
      query: txt.query,
    };
  }
  const record = txt.matches[0];
  const parsed = parseSpf(record);
  const tree = await walkSpf(domain, parsed);
  let all = parsed.mechanisms.find((m) => m.mechanism === "all");
  if (!all) {
    const redirected = tree.includes.find((i) => i.via === "redirect" && i.depth === 1 && i.record);
    if (redirected?.record) all = parseSpf(redirected.record).mechanisms.find((m) => m.mechanism === "all");
  }
  const allQualifier: Qualifier | null = all ? (all.qualifier ?? "+") : null;
  const errors = [...parsed.errors, ...tree.includes.filter((i) => i.error).map((i) => `${i.domain}: ${i.error}`)];
  const spf: SpfCheck = {
    ...empty,
    record,
    mechanisms: parsed.mechanisms,
    modifiers: parsed.modifiers,
    allQualifier,
    allMeaning: allQualifier ? ALL_MEANING[allQualifier] : null,
    dnsLookups: tree.lookups,
    voidLookups: tree.voidLookups,
    includes: tree.includes,
    errors,
  };
  const verdict = (status: CheckStatus, reason: string) => ({ spf: { ...spf, status, reason }, query: txt.query });
  if (parsed.errors.length)
    return verdict("fail", `The record has syntax errors (permerror): ${parsed.errors.join(" ")}`);
  if (tree.lookups > SPF_LOOKUP_LIMIT) {
    return verdict(
      "fail",
      `The record needs ${tree.lookups} DNS lookups, over the limit of ${SPF_LOOKUP_LIMIT}: receivers return permerror. Flatten includes into ip4:/ip6: ranges or drop unused senders.`,
    );
  }
  if (tree.voidLookups > SPF_VOID_LOOKUP_LIMIT) {
    return verdict(
      "fail",
      `${tree.voidLookups} lookups return no data, over the limit of ${SPF_VOID_LOOKUP_LIMIT} (permerror). Remove includes of domains without SPF.`,
    );
  }
  const broken = tree.includes.find((i) => i.error);
  if (broken)
    return verdict(
      "fail",
      `${broken.via === "redirect" ? "redirect=" : "include:"}${broken.domain} is broken: ${broken.error} Fix or remove it.`,
    );
  if (allQualifier === "+")
    return verdict("fail", '"+all" lets anyone send as this domain. Replace it with "-all" or "~all".');
  if (allQualifier === null)
    return verdict(
      "warn",
      'The record has no "all" mechanism, so unlisted senders get a neutral result. End it with "-all" (or "~all").',
    );
  if (allQualifier === "?")
    return verdict("warn", '"?all" is neutral: it does not protect against spoofing. Use "-all" or "~all".');
  if (tree.lookups >= SPF_LOOKUP_LIMIT - 1)
    return verdict("warn", `${tree.lookups} of ${SPF_LOOKUP_LIMIT} DNS lookups used: one more include will break SPF.`);
  if (allQualifier === "~" && !(await dmarcEnforced)) {
    return verdict(
      "warn",
      '"~all" only marks spoofed mail as suspicious and DMARC is not enforcing. Use "-all", or enforce DMARC (p=quarantine or p=reject).',
    );
  }
  return verdict(
    "pass",
    `Valid SPF record ending in "${allQualifier}all", ${tree.lookups} of ${SPF_LOOKUP_LIMIT} DNS lookups.`,
  );
}

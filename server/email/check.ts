// /email/check: everything knowable about an address without sending it mail.
import { resolverSource } from "../dns/resolver-source";
import { disposableMatch, emailFeedSources, isFreeProviderDomain, roleAccountCategory } from "./feed-lists";
import { checkMx, type MxCheck } from "./mx";
import { riskLevel, type EmailCheckResult, type ScoreReason } from "./schemas";
import { canonicalMailbox } from "./canonical";
import { parseAddress } from "./syntax";
import { suggestDomain } from "./typo";

const MX_WEIGHT: Record<MxCheck["status"], { weight: number; code: string } | null> = {
  present: null,
  null_mx: { weight: 90, code: "null_mx" },
  implicit: { weight: 20, code: "no_mx_records" },
  absent: { weight: 80, code: "no_mail_server" },
  domain_not_found: { weight: 90, code: "domain_not_found" },
  unavailable: null,
};

export async function checkEmail(input: string): Promise<EmailCheckResult> {
  const email = input.trim();
  const feeds = emailFeedSources();
  const parsed = parseAddress(email);
  if (!parsed.valid) {
    return {
      email,
      syntax: { valid: false, reason: parsed.reason, localPart: parsed.localPart, domain: parsed.domain },
      normalized: null,
      normalizationRules: [],
      subaddress: null,
      subaddressed: false,
      disposable: false,
      disposableMatch: null,
      freeProvider: false,
      roleAccount: false,
      roleCategory: null,
      mx: null,
      suggestion: null,
      score: 100,
      riskLevel: "critical",
      reasons: [{ code: "invalid_syntax", weight: 100, message: parsed.reason }],
      sources: { resolver: null, feeds },
      checkedAt: new Date().toISOString(),
    };
  }
  const { localPart, domain } = parsed;
  const norm = canonicalMailbox(localPart, domain);
  const disposable = disposableMatch(domain);
  const free = isFreeProviderDomain(domain);
  const role = roleAccountCategory(localPart);
  // Typo domains are often registered as throwaway inboxes (gmial.com is a listed disposable domain), so only a real
  // free provider (email.com is not a typo of gmail.com) suppresses the suggestion.
  const suggestedDomain = free ? null : suggestDomain(domain);
  const { mx, query } = await checkMx(domain);

  const reasons: ScoreReason[] = [];
  const add = (code: string, weight: number, message: string) => reasons.push({ code, weight, message });
  const mxSignal = MX_WEIGHT[mx.status];
  if (mxSignal) add(mxSignal.code, mxSignal.weight, mx.reason);
  if (mx.status === "unavailable") add("mx_unverified", 0, mx.reason);
  if (disposable) add("disposable", 70, `${domain} is a disposable email provider (listed: ${disposable}).`);
  if (suggestedDomain) add("possible_typo", 30, `${domain} looks like a typo of ${suggestedDomain}.`);
  if (role) add("role_account", 15, `"${localPart}" is a role account (${role}), not a person.`);
  if (free) add("free_provider", 5, `${domain} is a free email provider: anyone can open an address there.`);
  if (norm.subaddressed) add("subaddress", 5, "The address uses a tag (+tag): many sign-ups can share one inbox.");
  if (
    /\d{5,}/.test(localPart) ||
    (localPart.length >= 12 &&
      /^[a-z0-9]+$/i.test(localPart) &&
      (localPart.match(/\d/g)?.length ?? 0) >= localPart.length / 3)
  ) {
    add("generated_local_part", 10, "The local part looks machine-generated (long digit runs).");
  }
  if (parsed.quotedLocalPart || parsed.utf8LocalPart)
    add("unusual_syntax", 10, "Valid but unusual syntax (quoted or non-ASCII local part): many systems reject it.");
  const score = Math.min(
    100,
    reasons.reduce((s, r) => s + r.weight, 0),
  );

  return {
    email,
    syntax: { valid: true, reason: null, localPart, domain },
    normalized: norm.normalized,
    normalizationRules: norm.rules,
    subaddress: norm.subaddress,
    subaddressed: norm.subaddressed,
    disposable: disposable !== null,
    disposableMatch: disposable,
    freeProvider: free,
    roleAccount: role !== null,
    roleCategory: role,
    mx: { ...mx, nullMx: mx.status === "null_mx" },
    suggestion: suggestedDomain ? `${localPart}@${suggestedDomain}` : null,
    score,
    riskLevel: riskLevel(score),
    reasons,
    sources: { resolver: resolverSource(query), feeds },
    checkedAt: new Date().toISOString(),
  };
}

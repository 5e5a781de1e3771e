// /email/security: SPF, DMARC and DKIM of a domain, and its mail transport security (MTA-STS, TLS-RPT, DANE, BIMI),
// each with pass / warn / fail and what to do about it. The transport parts are optional hardening: their absence
// (warn) never lowers the overall verdict, only a misconfiguration (fail) does.
import { AppError } from "../../errors";
import { resolverSource } from "../../dns/resolver-source";
import { certainlyExists, unreliableResolverReason } from "../well-known";
import { checkDkim } from "./dkim";
import { checkDmarc } from "./dmarc";
import type { EmailSecurityResult } from "./schemas";
import { checkSpf } from "./spf-check";
import { checkMailTransport, TRANSPORT_NAMES } from "./transport";
import { worst } from "./verdict";

const NAMES = { spf: "SPF", dmarc: "DMARC", dkim: "DKIM", ...TRANSPORT_NAMES } as const;

export async function getEmailSecurityOrThrow(input: {
  domain: string;
  selectors?: string[];
}): Promise<EmailSecurityResult> {
  const { domain } = input;
  const dmarcP = checkDmarc(domain);
  const enforced = dmarcP.then(({ dmarc }) => dmarc.policy === "quarantine" || dmarc.policy === "reject");
  const [{ spf, query }, { dmarc }, dkim, transport] = await Promise.all([
    checkSpf(domain, enforced),
    dmarcP,
    checkDkim(domain, input.selectors),
    checkMailTransport(
      domain,
      dmarcP.then((d) => d.dmarc),
    ),
  ]);
  if (spf.status === "unknown" && dmarc.status === "unknown" && dkim.status === "unknown") {
    throw new AppError("UPSTREAM_UNAVAILABLE", `DNS resolution failed for ${domain}: no resolver answered.`);
  }
  // "No SPF, no DMARC" for gmail.com would be the resolver's fault, not the domain's (server/email/well-known.ts).
  if (query.status === "NXDOMAIN" && certainlyExists(domain))
    throw new AppError("UPSTREAM_UNAVAILABLE", unreliableResolverReason(domain));
  const parts = { spf, dmarc, dkim, ...transport };
  // Only a failing transport part counts: a domain without the optional protections keeps its SPF/DMARC/DKIM verdict.
  const counted = (Object.keys(NAMES) as (keyof typeof NAMES)[]).filter(
    (k) => k === "spf" || k === "dmarc" || k === "dkim" || parts[k].status === "fail",
  );
  const status = worst(counted.map((k) => parts[k].status));
  const failing = counted.filter((k) => parts[k].status === status);
  const reason =
    status === "pass"
      ? "SPF, DMARC and DKIM are in place and enforced."
      : `${failing.map((k) => NAMES[k]).join(", ")} ${status === "fail" ? "failed" : status === "warn" ? "need attention" : "could not be checked"}: see each check's reason.`;
  return {
    domain,
    overall: { status, reason },
    ...parts,
    sources: { resolver: resolverSource(query) },
    checkedAt: new Date().toISOString(),
  };
}

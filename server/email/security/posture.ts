// /email/security: SPF, DMARC and DKIM of a domain, and its mail transport security (MTA-STS, TLS-RPT, DANE, BIMI),
// each with pass / warn / fail and what to do about it. The transport parts are optional hardening: their absence
// (warn) never lowers the overall verdict, only a misconfiguration (fail) does.
import { AppError } from "../../errors";
import { resolverSource } from "../../dns/resolver-source";
import { checkMx, type MxCheck } from "../mx";
import { certainlyExists, unreliableResolverReason } from "../well-known";
import { checkBimi } from "./bimi";
import { checkDane } from "./dane";
import { checkDkim } from "./dkim";
import { checkDmarc, type DmarcCheck } from "./dmarc";
import { checkMtaSts } from "./mta-sts";
import type { EmailSecurityResult } from "./schemas";
import { checkSpf } from "./spf-check";
import { checkTlsRpt } from "./tls-rpt";
import { worst } from "./verdict";

const NAMES = {
  spf: "SPF",
  dmarc: "DMARC",
  dkim: "DKIM",
  mtaSts: "MTA-STS",
  tlsRpt: "TLS-RPT",
  dane: "DANE",
  bimi: "BIMI",
} as const;

export async function getEmailSecurityOrThrow(input: {
  domain: string;
  selectors?: string[];
}): Promise<EmailSecurityResult> {
  const { domain } = input;
  const dmarcP = checkDmarc(domain);
  const enforced = dmarcP.then(({ dmarc }) => dmarc.policy === "quarantine" || dmarc.policy === "reject");
  const mxP = checkMx(domain).then(({ mx }) => mxHosts(domain, mx));
  const [{ spf, query }, { dmarc }, dkim, mtaSts, tlsRpt, dane, bimi] = await Promise.all([
    checkSpf(domain, enforced),
    dmarcP,
    checkDkim(domain, input.selectors),
    mxP.then((mx) => checkMtaSts(domain, mx)),
    checkTlsRpt(domain),
    mxP.then((mx) => checkDane(domain, mx)),
    checkBimi(
      domain,
      dmarcP.then(({ dmarc: d }) => dmarcForBimi(d)),
    ),
  ]);
  if (spf.status === "unknown" && dmarc.status === "unknown" && dkim.status === "unknown") {
    throw new AppError("UPSTREAM_UNAVAILABLE", `DNS resolution failed for ${domain}: no resolver answered.`);
  }
  // "No SPF, no DMARC" for gmail.com would be the resolver's fault, not the domain's (server/email/well-known.ts).
  if (query.status === "NXDOMAIN" && certainlyExists(domain))
    throw new AppError("UPSTREAM_UNAVAILABLE", unreliableResolverReason(domain));
  const parts = { spf, dmarc, dkim, mtaSts, tlsRpt, dane, bimi };
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

/** The MX host names MTA-STS and DANE apply to; the domain itself under the RFC 5321 fallback; null when unknown. */
function mxHosts(domain: string, mx: MxCheck): string[] | null {
  if (mx.status === "unavailable") return null;
  if (mx.status === "implicit") return [domain];
  if (mx.status !== "present") return [];
  return mx.records.flatMap((r) => (r.data && "exchange" in r.data && r.data.exchange ? [r.data.exchange] : []));
}

function dmarcForBimi(d: DmarcCheck) {
  const policy = d.inherited ? (d.subdomainPolicy ?? d.policy) : d.policy;
  const pct = d.pct ?? 100;
  return { enforced: (policy === "quarantine" || policy === "reject") && pct === 100, policy, pct };
}

// Mail transport security of a domain (MTA-STS, TLS-RPT, DANE, BIMI), in one place for /email/security and the
// senders' daily check: the MX hosts are looked up once and shared by MTA-STS and DANE, BIMI is judged with DMARC.
import { checkMx, type MxCheck } from "../mx";
import { checkBimi, type BimiCheck } from "./bimi";
import { checkDane, type DaneCheck } from "./dane";
import type { DmarcCheck } from "./dmarc";
import { checkMtaSts, type MtaStsCheck } from "./mta-sts";
import { checkTlsRpt, type TlsRptCheck } from "./tls-rpt";

export interface MailTransportChecks {
  mtaSts: MtaStsCheck;
  tlsRpt: TlsRptCheck;
  dane: DaneCheck;
  bimi: BimiCheck;
}

export const TRANSPORT_NAMES = { mtaSts: "MTA-STS", tlsRpt: "TLS-RPT", dane: "DANE", bimi: "BIMI" } as const;

export async function checkMailTransport(domain: string, dmarc: Promise<DmarcCheck>): Promise<MailTransportChecks> {
  const mxP = checkMx(domain).then(({ mx }) => mxHosts(domain, mx));
  const [mtaSts, tlsRpt, dane, bimi] = await Promise.all([
    mxP.then((mx) => checkMtaSts(domain, mx)),
    checkTlsRpt(domain),
    mxP.then((mx) => checkDane(domain, mx)),
    checkBimi(domain, dmarc.then(dmarcForBimi)),
  ]);
  return { mtaSts, tlsRpt, dane, bimi };
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

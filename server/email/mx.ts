// Whether a domain can receive mail: MX records, RFC 7505 null MX, or the RFC 5321 section 5.1 fallback to the
// domain's own address when it has no MX at all.
import { specialUseNameReason } from "../net/special-use";
import { queryDns, type DnsQueryResult, type DnsRecord } from "../providers/dns";
import { certainlyExists, unreliableResolverReason } from "./well-known";

export type MxStatus = "present" | "null_mx" | "implicit" | "absent" | "domain_not_found" | "unavailable";

export interface MxCheck {
  status: MxStatus;
  /** null when the resolvers could not say. */
  acceptsMail: boolean | null;
  records: DnsRecord[];
  reason: string;
}

const MX_REASON: Record<MxStatus, string> = {
  present: "The domain publishes MX records.",
  null_mx: "The domain publishes a null MX (RFC 7505): it states that it accepts no mail.",
  implicit:
    "No MX records, but the domain has an address: senders fall back to it (RFC 5321 section 5.1). Unusual for a real mailbox provider.",
  absent: "The domain has neither MX records nor an address: mail to it cannot be delivered.",
  domain_not_found: "The domain does not exist (NXDOMAIN).",
  unavailable: "The resolvers did not answer, so mail acceptance is unknown.",
};

export async function checkMx(domain: string): Promise<{ mx: MxCheck; query: DnsQueryResult }> {
  // A special-use name (foo.internal, *.svc.cluster.local, localhost) receives no mail from the internet, and asking
  // the service's resolver about it would tell a caller what the operator's network holds: no resolver is asked.
  const special = specialUseNameReason(domain);
  if (special) return { mx: notOnTheInternet(special), query: notAsked(domain) };
  const q = await queryDns(domain, "MX");
  const done = (status: MxStatus, records: DnsRecord[] = [], acceptsMail: boolean | null = null) => ({
    mx: { status, acceptsMail, records, reason: MX_REASON[status] },
    query: q,
  });
  if (q.status === "NXDOMAIN") {
    // NXDOMAIN for gmail.com says the resolver is broken, not the address: unknown, counted against nobody.
    if (certainlyExists(domain))
      return {
        mx: { status: "unavailable", acceptsMail: null, records: [], reason: unreliableResolverReason(domain) },
        query: q,
      };
    return done("domain_not_found", [], false);
  }
  if (q.status === "NOERROR") {
    const records = q.records.filter((r) => r.type === "MX").sort((a, b) => mxPref(a) - mxPref(b));
    const isNull = records.length === 1 && mxPref(records[0]) === 0 && mxExchange(records[0]) === "";
    return isNull ? done("null_mx", records, false) : done("present", records, true);
  }
  if (q.status !== "NODATA") return done("unavailable");
  const [a, aaaa] = await Promise.all([queryDns(domain, "A"), queryDns(domain, "AAAA")]);
  if (a.status === "NOERROR" || aaaa.status === "NOERROR") return done("implicit", [], true);
  const bothAnswered = [a, aaaa].every((r) => r.status === "NODATA" || r.status === "NXDOMAIN");
  return bothAnswered ? done("absent", [], false) : done("unavailable");
}

const mxPref = (r: DnsRecord) => (r.data && "preference" in r.data ? r.data.preference : 0);
const mxExchange = (r: DnsRecord) => (r.data && "exchange" in r.data ? r.data.exchange : "");

function notOnTheInternet(reason: string): MxCheck {
  return { status: "domain_not_found", acceptsMail: false, records: [], reason: `${reason}: it receives no mail.` };
}

/** The MX question that was not asked: no resolver, no attempt. */
function notAsked(domain: string): DnsQueryResult {
  return {
    name: domain,
    type: "MX",
    status: "NXDOMAIN",
    records: [],
    negativeSoa: null,
    server: null,
    servers: [],
    authenticated: false,
    truncatedRetriedOverTcp: false,
    attempts: [],
    durationMs: 0,
    checkedAt: new Date().toISOString(),
  };
}

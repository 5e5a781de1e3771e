// TXT records carrying one policy (SPF, DMARC, DKIM), selected by their version tag.
import { queryDns, type DnsQueryResult } from "../../providers/dns";

export interface PolicyTxt {
  query: DnsQueryResult;
  /** Records whose text starts with the tag; the strings of one record are concatenated (RFC 7208 section 3.3). */
  matches: string[];
  /** True when the resolvers gave an answer (NOERROR, NODATA or NXDOMAIN). */
  answered: boolean;
}

export async function fetchPolicyTxt(name: string, tag: RegExp): Promise<PolicyTxt> {
  const query = await queryDns(name, "TXT");
  const answered = query.status === "NOERROR" || query.status === "NODATA" || query.status === "NXDOMAIN";
  const matches = query.records
    .filter((r) => r.type === "TXT")
    .map((r) => (r.data && "strings" in r.data ? r.data.strings.join("") : r.value))
    .filter((t) => tag.test(t));
  return { query, matches, answered };
}

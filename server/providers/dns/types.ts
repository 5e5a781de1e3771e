// Typed results of the DNS client. A query either got an authoritative-enough answer (NOERROR with records,
// NODATA, NXDOMAIN) or failed (SERVFAIL, REFUSED, TIMEOUT, ERROR); callers must never read a failure as "absent".

export const DNS_RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "NS", "TXT", "SOA", "CAA", "SRV", "PTR"] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];
/** TLSA (DANE, RFC 6698) is queried for the email security check but not offered on the public /dns/lookup. */
export type DnsQueryType = DnsRecordType | "TLSA";

export type MxData = { preference: number; exchange: string };
export type TxtData = { strings: string[] };
export type SoaData = {
  mname: string;
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
};
export type CaaData = { flags: number; tag: string; value: string };
export type SrvData = { priority: number; weight: number; port: number; target: string };

export type TlsaData = { usage: number; selector: number; matchingType: number; certificateHex: string };
export interface TlsaRecord {
  name: string;
  type: "TLSA";
  ttl: number;
  /** Presentation form: usage selector matching-type hex. */
  value: string;
  data: TlsaData;
}

export interface DnsRecord {
  name: string;
  type: DnsRecordType;
  ttl: number;
  /** Presentation form, as dig prints the record data. */
  value: string;
  /** Structured fields for MX, TXT, SOA, CAA and SRV; null for types whose value says it all. */
  data: MxData | TxtData | SoaData | CaaData | SrvData | null;
}

export type DnsAnsweredStatus = "NOERROR" | "NXDOMAIN" | "NODATA";
export type DnsFailedStatus = "SERVFAIL" | "REFUSED" | "TIMEOUT" | "ERROR";
export type DnsStatus = DnsAnsweredStatus | DnsFailedStatus;

export interface DnsAttempt {
  server: string;
  transport: "udp" | "tcp";
  outcome: DnsStatus;
  detail: string | null;
  durationMs: number;
}

export interface DnsQueryResult<T extends DnsQueryType = DnsRecordType, R = DnsRecord> {
  name: string;
  type: T;
  status: DnsStatus;
  /** Records of the asked type, CNAMEs of the chain included (as resolvers return them). */
  records: R[];
  /** The SOA from the authority section of a negative answer: its minimum/TTL is how long the absence is cached. */
  negativeSoa: DnsRecord | null;
  /** The server whose answer was used, or null when none answered. */
  server: string | null;
  /** The resolvers configured for this query, in the order tried. */
  servers: string[];
  authenticated: boolean;
  truncatedRetriedOverTcp: boolean;
  attempts: DnsAttempt[];
  durationMs: number;
  checkedAt: string;
}

export function isAnswered(r: Pick<DnsQueryResult, "status">): boolean {
  return r.status === "NOERROR" || r.status === "NXDOMAIN" || r.status === "NODATA";
}

// /dns/lookup: one record type for one name through the configured resolvers.
import { AppError } from "../errors";
import { queryDns, type DnsQueryResult, type DnsRecordType } from "../providers/dns";
import { parseIpStrict } from "../net/ip";
import { unmappedAddress } from "../net/ip-parse";
import { checkDomainName } from "./names";
import { resolverSource } from "./resolver-source";
import { ptrName } from "./reverse";
import type { DnsLookupResult } from "./schemas";

const MEANING = {
  NOERROR: "The name exists and has records of this type.",
  NODATA: "The name exists but has no records of this type.",
  NXDOMAIN: "The name does not exist.",
  SERVFAIL:
    "The resolver could not get a usable answer from the domain's name servers (broken delegation, unreachable name servers or failed DNSSEC validation).",
} as const;

/** The name to query: a PTR lookup accepts an IP address and asks for its reverse name. */
export function queryNameFor(
  domain: string,
  type: DnsRecordType,
): { domain: string; queryName: string } | { error: string } {
  if (type === "PTR") {
    const ip = parseIpStrict(domain.trim());
    // An IPv4-mapped address (::ffff:192.0.2.10) is its IPv4 host, whose PTR record lives under in-addr.arpa; its
    // ip6.arpa name is delegated to no one (README "Requests the API reads").
    const address = ip ? unmappedAddress(ip.address) : null;
    if (address) return { domain: address, queryName: ptrName(address)! };
  }
  const checked = checkDomainName(domain);
  if (!checked.ok) return { error: checked.reason };
  return { domain: checked.name, queryName: checked.name };
}

/** Throws UPSTREAM_UNAVAILABLE when no resolver gave an answer (timeout, network error, REFUSED). */
export function answeredOrThrow(
  r: DnsQueryResult,
): DnsQueryResult & { status: "NOERROR" | "NODATA" | "NXDOMAIN" | "SERVFAIL" } {
  if (r.status === "NOERROR" || r.status === "NODATA" || r.status === "NXDOMAIN" || r.status === "SERVFAIL") {
    return r as DnsQueryResult & { status: "NOERROR" | "NODATA" | "NXDOMAIN" | "SERVFAIL" };
  }
  const why = r.attempts.map((a) => `${a.server} ${a.outcome}${a.detail ? ` (${a.detail})` : ""}`).join("; ");
  throw new AppError(
    "UPSTREAM_UNAVAILABLE",
    `DNS resolution failed: no resolver answered (${why || "no resolver configured"}).`,
  );
}

/**
 * Names that certainly exist (the caller's list of well-known domains) and the sentence to answer instead of "does not
 * exist" for them: a resolver answering NXDOMAIN for such a name is broken, and its answer is no answer (issue 22,
 * item 21). Passed in by the route, since the lists live above this module.
 */
export interface WellKnownNames {
  certainlyExists: (domain: string) => boolean;
  unreliableResolverReason: (domain: string) => string;
}

export async function lookupDnsOrThrow(
  input: { domain: string; type: DnsRecordType },
  wellKnown?: WellKnownNames,
): Promise<DnsLookupResult> {
  const target = queryNameFor(input.domain, input.type);
  if ("error" in target) throw new AppError("INVALID_REQUEST", target.error);
  const r = answeredOrThrow(await queryDns(target.queryName, input.type));
  if (r.status === "NXDOMAIN" && wellKnown?.certainlyExists(target.domain))
    throw new AppError("UPSTREAM_UNAVAILABLE", wellKnown.unreliableResolverReason(target.domain));
  const soa = r.negativeSoa;
  const soaMinimum = soa?.data && "minimum" in soa.data ? soa.data.minimum : null;
  return {
    domain: target.domain,
    queryName: target.queryName,
    type: input.type,
    status: r.status,
    statusMeaning: MEANING[r.status],
    records: r.records.filter((x) => x.type === input.type),
    aliases: input.type === "CNAME" ? [] : r.records.filter((x) => x.type === "CNAME"),
    // RFC 2308: negative answers are cached for the lesser of the SOA's TTL and its MINIMUM field.
    negativeTtl: soa && soaMinimum !== null ? Math.min(soa.ttl, soaMinimum) : null,
    authority: soa,
    dnssecAuthenticated: r.authenticated,
    resolver: resolverSource(r),
    checkedAt: r.checkedAt,
  };
}

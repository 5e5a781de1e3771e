// GET /dns/lookup: DNS lookup.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { lookupDnsOrThrow, queryNameFor } from "../../../dns/lookup";
import { certainlyExists, unreliableResolverReason } from "../../../email/well-known";
import { dnsLookupResultSchema, type DnsLookupResult } from "../../../dns/schemas";
import { DNS_RECORD_TYPES, type DnsRecordType } from "../../../providers/dns";
import { meteredProcedure } from "../../trpc";

const isRecordType = (t: string): t is DnsRecordType => (DNS_RECORD_TYPES as readonly string[]).includes(t);

/** The name a lookup asks the resolver about (a PTR lookup of an address asks its reverse name). */
function queryNameOf(input: { domain: string; type: string }): string {
  const target = isRecordType(input.type) ? queryNameFor(input.domain, input.type) : null;
  return target && "queryName" in target ? target.queryName : input.domain;
}

const dnsLookupInput = z
  .object({
    domain: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .describe("Domain name (IDN allowed); for type PTR an IPv4 or IPv6 address is also accepted"),
    type: z
      .string()
      .trim()
      .toUpperCase()
      .default("A")
      .refine(isRecordType, { message: `must be one of ${DNS_RECORD_TYPES.join(", ")}` })
      .describe(`Record type: ${DNS_RECORD_TYPES.join(", ")} (default A, case-insensitive)`),
  })
  .superRefine((v, ctx) => {
    if (!isRecordType(v.type)) return;
    const target = queryNameFor(v.domain, v.type);
    if ("error" in target) ctx.addIssue({ code: "custom", path: ["domain"], message: target.error });
  });

export const dnsLookupProcedure = meteredProcedure({
  capability: "full",
  endpoint: "dns.lookup",
  input: dnsLookupInput,
  // A special-use name has no public DNS answer; asking would ask whatever resolver the service sits behind. A PTR
  // lookup is judged by the name it asks (an address's reverse name): a private address's names are its network's.
  decides: { publicName: (input) => queryNameOf(input) },
  history: (input, out: DnsLookupResult) => ({
    target: `${out.domain} ${out.type}`,
    summary: { type: out.type, status: out.status, records: out.records.length },
  }),
})
  .meta({
    openapi: {
      method: "GET",
      path: "/dns/lookup",
      tags: ["DNS"],
      summary: "DNS lookup",
      description:
        "Resolves one record type (A, AAAA, CNAME, MX, NS, TXT, SOA, CAA, SRV or PTR) through the service's recursive resolvers (SERVICE_DNS_SERVERS) over UDP, retrying over TCP when the answer is truncated. Every record carries its TTL. `status` tells NOERROR, NODATA (the name exists without that type) and NXDOMAIN (the name does not exist) apart; a negative answer carries the zone's SOA and its negative-caching TTL. SERVFAIL from the resolvers is reported as a status, since it describes the domain's DNS. 400 for an unknown type or an invalid name (no unit); 503 UPSTREAM_UNAVAILABLE when no resolver answers, or when it answers that a well-known domain (the shipped free-mail and top-site lists: gmail.com, google.com) does not exist, which says the resolver is broken (its unit is given back).",
    },
  })
  .output(dnsLookupResultSchema)
  .query(({ input }) =>
    lookupDnsOrThrow(
      { domain: input.domain, type: input.type as DnsRecordType },
      { certainlyExists, unreliableResolverReason },
    ),
  );

// The DNS lookup object, as /dns/lookup returns it.
import { z } from "zod";
import { DNS_RECORD_TYPES } from "../providers/dns";
import { resolverSourceSchema } from "./resolver-source";

export const dnsRecordSchema = z.object({
  name: z.string(),
  type: z.enum(DNS_RECORD_TYPES),
  ttl: z.number().int().describe("Seconds the resolver may still cache this record"),
  value: z.string().describe("Record data in presentation format, as dig prints it"),
  data: z
    .union([
      z.object({ preference: z.number().int(), exchange: z.string() }),
      z.object({ strings: z.array(z.string()) }),
      z.object({
        mname: z.string(),
        rname: z.string(),
        serial: z.number(),
        refresh: z.number(),
        retry: z.number(),
        expire: z.number(),
        minimum: z.number(),
      }),
      z.object({ flags: z.number().int(), tag: z.string(), value: z.string() }),
      z.object({ priority: z.number().int(), weight: z.number().int(), port: z.number().int(), target: z.string() }),
    ])
    .nullable()
    .describe("Structured fields for MX, TXT, SOA, CAA and SRV; null for A, AAAA, CNAME, NS and PTR"),
});

export const dnsLookupResultSchema = z.object({
  domain: z
    .string()
    .describe("The name asked about, normalised (lower case, punycode); for PTR the IP address when one was given"),
  queryName: z
    .string()
    .describe("The name actually queried (the in-addr.arpa / ip6.arpa name for a PTR lookup of an address)"),
  type: z.enum(DNS_RECORD_TYPES),
  status: z
    .enum(["NOERROR", "NODATA", "NXDOMAIN", "SERVFAIL"])
    .describe(
      "NOERROR: records found. NODATA: the name exists but has no record of this type. NXDOMAIN: the name does not exist. SERVFAIL: the resolver could not get an answer from the domain's name servers",
    ),
  statusMeaning: z.string(),
  records: z.array(dnsRecordSchema).describe("Records of the asked type"),
  aliases: z.array(dnsRecordSchema).describe("CNAME records followed to reach the answer"),
  negativeTtl: z
    .number()
    .int()
    .nullable()
    .describe("For NODATA and NXDOMAIN: seconds the absence may be cached (from the zone's SOA)"),
  authority: dnsRecordSchema.nullable().describe("The SOA returned with a negative answer"),
  dnssecAuthenticated: z.boolean().describe("The resolver set the AD bit (it validated the answer with DNSSEC)"),
  resolver: resolverSourceSchema,
  checkedAt: z.string().describe("When the query was answered (ISO 8601)"),
});

export type DnsLookupResult = z.infer<typeof dnsLookupResultSchema>;

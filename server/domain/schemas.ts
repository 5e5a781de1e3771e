// Response contracts of /domain/{domain}, /domain/{domain}/subdomains and /domain/{domain}/infrastructure.
import { z } from "zod";

export const domainSourceSchema = z.object({
  name: z.string(),
  url: z.string().nullable(),
  fetchedAt: z.string().nullable().describe("When the data was fetched or the shipped data was last refreshed"),
  status: z.enum(["ok", "unavailable", "not_applicable"]),
  reason: z.string().nullable(),
});

export const subdomainSchema = z.object({
  name: z.string(),
  firstSeen: z.string().nullable().describe("Earliest notBefore of a logged certificate naming it"),
  lastSeen: z.string().nullable().describe("Latest notBefore of a logged certificate naming it"),
  lastExpiry: z.string().nullable().describe("Latest notAfter of those certificates"),
  certificates: z.number().int().describe("Logged certificates naming it"),
  wildcard: z.boolean().describe("Also seen as a wildcard (*.name)"),
});

export const subdomainResponseSchema = z.object({
  domain: z.string().describe("The hostname asked about"),
  apex: z.string().describe("Its registrable domain, whose names are listed"),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  subdomains: z.array(subdomainSchema),
  retained: z.boolean().describe("true: the CT source was unavailable and this is the last response retained from it"),
  fetchedAt: z.string().describe("When the CT source gave this data"),
  unavailableReason: z.string().nullable().describe("Why the CT source could not be used now (when retained)"),
  note: z.string(),
  sources: z.array(domainSourceSchema),
});

export const networkSchema = z.object({
  asn: z.number().int().nullable(),
  organization: z.string().nullable(),
  range: z
    .object({ start: z.string(), end: z.string() })
    .nullable()
    .describe("The routed or delegated range holding the address"),
  reason: z.string().nullable().describe("Why the network fields are null"),
});

export const locationSchema = z.object({
  countryCode: z.string().nullable(),
  country: z.string().nullable(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  reason: z.string().nullable(),
});

export const edgeSchema = z.object({
  provider: z.string(),
  kind: z.enum(["cdn", "reverse_proxy", "cloud_load_balancer"]),
  evidence: z.string().describe("Why the address is taken for an edge: the range, the ASN or the CNAME"),
});

export const infraAddressSchema = z.object({
  address: z.string(),
  version: z.union([z.literal(4), z.literal(6)]),
  recordType: z.enum(["A", "AAAA"]),
  ttl: z.number().int(),
  scope: z.string(),
  network: networkSchema,
  location: locationSchema,
  edge: edgeSchema
    .nullable()
    .describe("Set when the address is a CDN or reverse-proxy edge: it identifies the edge network, not the origin"),
});

export const infrastructureResponseSchema = z.object({
  domain: z.string(),
  cname: z
    .array(z.object({ name: z.string(), target: z.string(), ttl: z.number().int() }))
    .describe("The CNAME chain, in order"),
  addresses: z.array(infraAddressSchema),
  behindEdge: z.boolean().describe("Every address is a known CDN or reverse-proxy edge"),
  note: z.string().nullable(),
  checkedAt: z.string(),
  sources: z.array(domainSourceSchema),
});

export const riskReasonSchema = z.object({ signal: z.string(), weight: z.number().int(), reason: z.string() });

export const domainIntelSchema = z.object({
  domain: z.string(),
  registrableDomain: z.string(),
  publicSuffix: z.string(),
  privateSuffix: z.boolean(),
  knownSuffix: z.boolean(),
  subdomain: z.string().nullable(),
  exists: z.boolean().nullable().describe("false when DNS says NXDOMAIN; null when DNS could not be asked"),
  registration: z
    .object({
      registrar: z.string().nullable(),
      createdAt: z.string().nullable(),
      updatedAt: z.string().nullable(),
      expiresAt: z.string().nullable(),
      ageDays: z.number().int().nullable(),
      status: z.array(z.string()),
      nameservers: z.array(z.string()),
    })
    .nullable(),
  registrationReason: z.string().nullable(),
  dns: z
    .object({
      a: z.array(z.string()),
      aaaa: z.array(z.string()),
      mx: z.array(z.object({ preference: z.number().int(), exchange: z.string() })),
      ns: z.array(z.string()),
      txt: z.array(z.string()),
      status: z
        .record(z.string(), z.string())
        .describe("DNS status per record type (NOERROR, NODATA, NXDOMAIN, SERVFAIL, ...)"),
    })
    .nullable(),
  dnsReason: z.string().nullable(),
  emailAuthentication: z
    .object({
      overall: z.string(),
      reason: z.string(),
      spf: z.string(),
      dmarc: z.string(),
      dmarcPolicy: z.string().nullable(),
      dkim: z.string(),
    })
    .nullable(),
  emailAuthenticationReason: z.string().nullable(),
  disposable: z.boolean(),
  freeEmailProvider: z.boolean(),
  blocklists: z
    .object({
      status: z.string(),
      listedOn: z.array(z.string()),
      checked: z.number().int(),
      unavailable: z.number().int(),
    })
    .nullable(),
  blocklistsReason: z.string().nullable(),
  risk: z.object({
    score: z.number().int().min(0).max(100),
    level: z.enum(["low", "medium", "high", "critical"]),
    reasons: z.array(riskReasonSchema),
  }),
  checkedAt: z.string(),
  sources: z.array(domainSourceSchema),
});

export type DomainSource = z.infer<typeof domainSourceSchema>;
export type Subdomain = z.infer<typeof subdomainSchema>;
export type SubdomainResponse = z.infer<typeof subdomainResponseSchema>;
export type InfrastructureResponse = z.infer<typeof infrastructureResponseSchema>;
export type InfraAddress = z.infer<typeof infraAddressSchema>;
export type DomainIntel = z.infer<typeof domainIntelSchema>;
export type RiskReason = z.infer<typeof riskReasonSchema>;

// Domain intelligence, certificate-transparency subdomains and hostname infrastructure. Input that cannot name a
// registrable domain is a 400 from the schema, before any unit is reserved.
import { z } from "zod";
import { checkDomainName } from "../../dns/names";
import { getInfrastructureOrThrow } from "../../domain/infrastructure";
import { getDomainIntelOrThrow } from "../../domain/overview";
import { registrableNameOf } from "../../domain/registrable";
import {
  domainIntelSchema,
  infrastructureResponseSchema,
  subdomainResponseSchema,
  type DomainIntel,
  type InfrastructureResponse,
  type SubdomainResponse,
} from "../../domain/schemas";
import { getSubdomainsOrThrow } from "../../domain/subdomains";
import { meteredProcedure, router } from "../trpc";

const registrableDomain = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .superRefine((d, ctx) => {
    const r = registrableNameOf(d);
    if (!r.ok) ctx.addIssue({ code: "custom", message: r.reason });
  })
  .describe("Domain or host name (IDN allowed); its registrable domain is derived with the Public Suffix List");

const hostName = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .superRefine((d, ctx) => {
    const r = checkDomainName(d);
    if (!r.ok) ctx.addIssue({ code: "custom", message: r.reason });
    else if (!r.name.includes(".")) ctx.addIssue({ code: "custom", message: "A host name needs at least two labels." });
  })
  .describe("Host name (IDN allowed)");

const subdomainsInput = z.object({
  domain: registrableDomain,
  limit: z.coerce.number().int().min(1).max(500).default(100).describe("Page size, 1..500 (default 100)"),
  offset: z.coerce.number().int().min(0).default(0).describe("Names to skip, min 0 (default 0)"),
});

export const domainRouter = router({
  domainIntel: meteredProcedure({
    capability: "full",
    endpoint: "domain",
    input: z.object({ domain: registrableDomain }),
    history: (input, out: DomainIntel) => ({
      target: out.domain,
      summary: { score: out.risk.score, level: out.risk.level, exists: out.exists },
    }),
  })
    .meta({
      openapi: {
        method: "GET",
        path: "/domain/{domain}",
        tags: ["Domains"],
        summary: "Domain intelligence",
        description:
          "The registrable domain (Public Suffix List aware, private suffixes such as github.io included), registration data and age from RDAP, a DNS summary (A, AAAA, MX, NS, TXT), the email authentication summary (SPF, DMARC, DKIM), disposable and free-provider flags, domain blocklist status, and a 0-100 risk score with the reasons that moved it. Parts whose source is unavailable are null with a reason (and never raise the score); the answer is never a 503 because the offline parts always stand. A domain that does not exist answers 200 with `exists: false`. Every part names its source and when it was fetched.",
      },
    })
    .output(domainIntelSchema)
    .query(({ input }) => getDomainIntelOrThrow(input.domain)),

  domainSubdomains: meteredProcedure({
    capability: "full",
    endpoint: "domain.subdomains",
    input: subdomainsInput,
    history: (_input, out: SubdomainResponse) => ({
      target: out.apex,
      summary: { total: out.total, retained: out.retained },
    }),
  })
    .meta({
      openapi: {
        method: "GET",
        path: "/domain/{domain}/subdomains",
        tags: ["Domains"],
        summary: "Subdomains from certificate transparency",
        description:
          "Certificate-transparency hostname observations for the registrable apex of the supplied hostname (from a crt.sh-compatible source, SERVICE_CT_URL): deduplicated names, sorted, each with first and last seen (certificate notBefore), last expiry, the number of logged certificates and whether a wildcard covered it. These are historical naming data: a name listed here need not resolve today. `limit` 1..500 (default 100) and `offset` >= 0 page the names; outside those ranges the answer is 400 and no unit is consumed. Each successful answer is retained; when the source is unavailable the last retained answer is served with `retained: true`, its `fetchedAt` and the reason. 503 UPSTREAM_UNAVAILABLE only when the source is unavailable and nothing was retained (the unit counts).",
      },
    })
    .output(subdomainResponseSchema)
    .query(({ input, ctx }) =>
      getSubdomainsOrThrow({ domain: input.domain, limit: input.limit, offset: input.offset, db: ctx.db }),
    ),

  domainInfrastructure: meteredProcedure({
    capability: "full",
    endpoint: "domain.infrastructure",
    input: z.object({ domain: hostName }),
    decides: { publicName: (input) => input.domain },
    history: (_input, out: InfrastructureResponse) => ({
      target: out.domain,
      summary: { addresses: out.addresses.length, behindEdge: out.behindEdge },
    }),
  })
    .meta({
      errors: ["DOMAIN_NOT_FOUND"],
      openapi: {
        method: "GET",
        path: "/domain/{domain}/infrastructure",
        tags: ["Domains"],
        summary: "Hostname infrastructure",
        description:
          "Resolves the hostname's current A, AAAA and CNAME records and gives each address its network registration (origin ASN, organisation and routed range from the shipped ASN data) and location (shipped geolocation), null with a reason when not available. Addresses of CDNs and reverse proxies (Cloudflare, Fastly, Akamai, CloudFront, ...) carry an `edge` naming the provider and the evidence: they identify the edge network, not the origin. 404 DOMAIN_NOT_FOUND for a name that does not exist; 503 UPSTREAM_UNAVAILABLE when DNS or the IP network data is temporarily unavailable (the unit counts).",
      },
    })
    .output(infrastructureResponseSchema)
    .query(({ input }) => getInfrastructureOrThrow(input.domain)),
});

// GET /domain/{domain}/infrastructure: hostname infrastructure.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { checkDomainName } from "../../../dns/names";
import { getInfrastructureOrThrow } from "../../../domain/infrastructure";
import { infrastructureResponseSchema, type InfrastructureResponse } from "../../../domain/schemas";
import { meteredProcedure } from "../../trpc";

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

export const domainInfrastructureProcedure = meteredProcedure({
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
  .query(({ input }) => getInfrastructureOrThrow(input.domain));

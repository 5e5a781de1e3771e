// GET /domain/{domain}/infrastructure: hostname infrastructure.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { getInfrastructureOrThrow } from "../../../domain/infrastructure";
import { infrastructureResponseSchema, type InfrastructureResponse } from "../../../domain/schemas";
import { meteredProcedure } from "../../trpc";
import { hostName } from "./shared";

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
        "Resolves the hostname's current A, AAAA and CNAME records and gives each address its network registration (origin ASN, organisation and routed range from the shipped ASN data) and location (shipped geolocation), null with a reason when not available. Addresses of CDNs and reverse proxies (Cloudflare, Fastly, Akamai, CloudFront, ...) carry an `edge` naming the provider and the evidence: they identify the edge network, not the origin. 404 DOMAIN_NOT_FOUND for a name that does not exist; 503 UPSTREAM_UNAVAILABLE when DNS or the IP network data is temporarily unavailable (its unit is given back).",
    },
  })
  .output(infrastructureResponseSchema)
  .query(({ input }) => getInfrastructureOrThrow(input.domain));

// GET /domain/{domain}/subdomains: subdomains from certificate transparency.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { subdomainResponseSchema, type SubdomainResponse } from "../../../domain/schemas";
import { getSubdomainsOrThrow } from "../../../domain/subdomains";
import { meteredProcedure } from "../../trpc";
import { registrableDomain } from "./shared";

const subdomainsInput = z.object({
  domain: registrableDomain,
  limit: z.coerce.number().int().min(1).max(500).default(100).describe("Page size, 1..500 (default 100)"),
  offset: z.coerce.number().int().min(0).default(0).describe("Names to skip, min 0 (default 0)"),
});

export const domainSubdomainsProcedure = meteredProcedure({
  capability: "full",
  endpoint: "domain.subdomains",
  input: subdomainsInput,
  // A special-use name has no certificates any public log would hold: answered free, as the other domain routes do.
  decides: { publicName: (input) => input.domain },
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
        "Certificate-transparency hostname observations for the registrable apex of the supplied hostname (from a crt.sh-compatible source, SERVICE_CT_URL): deduplicated names, sorted, each with first and last seen (certificate notBefore), last expiry, the number of logged certificates and whether a wildcard covered it. These are historical naming data: a name listed here need not resolve today. `limit` 1..500 (default 100) and `offset` >= 0 page the names; outside those ranges the answer is 400 and no unit is consumed. Each successful answer is retained; when the source is unavailable the last retained answer is served with `retained: true`, its `fetchedAt` and the reason. 503 UPSTREAM_UNAVAILABLE only when the source is unavailable and nothing was retained (its unit is given back).",
    },
  })
  .output(subdomainResponseSchema)
  .query(({ input, ctx }) =>
    getSubdomainsOrThrow({ domain: input.domain, limit: input.limit, offset: input.offset, db: ctx.db }),
  );

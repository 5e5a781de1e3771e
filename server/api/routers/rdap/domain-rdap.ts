// GET /domain/{domain}/rdap: domain RDAP summary.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { getDomainRdapOrThrow } from "../../../providers/rdap/domain";
import { domainRdapSchema } from "../../../providers/rdap/schema";
import { meteredProcedure } from "../../trpc";
import { registrableDomain } from "../domain/shared";

export const domainRdapProcedure = meteredProcedure({
  capability: "full",
  endpoint: "domain.rdap",
  input: z.object({ domain: registrableDomain }),
  decides: { publicName: (input) => input.domain },
  history: (input, out: z.infer<typeof domainRdapSchema>) => ({
    target: input.domain,
    summary: { registrar: out.registrar?.name ?? null, registeredAt: out.registeredAt },
  }),
})
  .meta({
    errors: ["DOMAIN_NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/domain/{domain}/rdap",
      tags: ["Domain"],
      summary: "Domain RDAP summary",
      description:
        "Registration data of the registrable domain of the name given (www.example.co.uk is looked up as example.co.uk) from its registry's " +
        "RDAP server: registrar (name, IANA id, abuse contact), status, events (registration, expiration, last change), age in days, name " +
        "servers, DNSSEC delegation and the abuse contact. 404 DOMAIN_NOT_FOUND when the registry has no such registration; 503 " +
        "UPSTREAM_UNAVAILABLE when it does not answer (its unit is given back).",
    },
  })
  .output(domainRdapSchema)
  .query(({ input }) => getDomainRdapOrThrow(input.domain));

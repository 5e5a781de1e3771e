// GET /domain/{domain}/abuse: abuse contact of a domain.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { getDomainAbuseOrThrow } from "../../../abuse/lookup";
import { domainAbuseSchema, type DomainAbuse } from "../../../abuse/schemas";
import { meteredProcedure } from "../../trpc";
import { registrableDomain } from "../domain/shared";
import { NESTING } from "./shared";

export const domainAbuseProcedure = meteredProcedure({
  capability: "full",
  endpoint: "domain.abuse",
  input: z.object({ domain: registrableDomain }),
  decides: { publicName: (input) => input.domain },
  history: (input, out: DomainAbuse) => ({
    target: input.domain,
    summary: { email: out.abuse?.email ?? null, registrar: out.registrar?.name ?? null },
  }),
})
  .meta({
    errors: ["DOMAIN_NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/domain/{domain}/abuse",
      tags: ["Domain"],
      summary: "Abuse contact of a domain",
      description: `Where to report abuse of a domain (its registrable domain is looked up): the registrar's abuse mailbox and phone from the registry's RDAP answer, with the registrar (name, IANA id) and the RDAP source. ${NESTING} \`abuse\` is null with a \`reason\` when the registry publishes none. 404 DOMAIN_NOT_FOUND when the registry has no such registration; 503 UPSTREAM_UNAVAILABLE when it does not answer (its unit is given back).`,
    },
  })
  .output(domainAbuseSchema)
  .query(({ input }) => getDomainAbuseOrThrow(input.domain));

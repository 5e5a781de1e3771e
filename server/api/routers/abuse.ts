// GET /ip/{ip}/abuse and GET /domain/{domain}/abuse: abuse contacts from RDAP (full, 1 unit each).
import { z } from "zod";
import { getDomainAbuseOrThrow, getIpAbuseOrThrow } from "../../abuse/lookup";
import { domainAbuseSchema, ipAbuseSchema, type DomainAbuse, type IpAbuse } from "../../abuse/schemas";
import { ipAddress } from "../schemas";
import { meteredProcedure, router } from "../trpc";
import { domainName } from "./rdap";

const NESTING =
  "The contact is the RDAP entity with the `abuse` role, wherever the registry nests it (inside the registrant or the registrar entity); when the registry names the entity by handle only, its own entity URL on the same RDAP server is fetched (listed in `followed_links`).";

export const abuseRouter = router({
  ipAbuse: meteredProcedure({
    capability: "full",
    endpoint: "ip.abuse",
    input: z.object({ ip: ipAddress }),
    decides: { publicAddress: (input) => input.ip },
    history: (input, out: IpAbuse) => ({
      target: input.ip,
      summary: { email: out.abuse?.email ?? null, network: out.network.name },
    }),
  })
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "GET",
        path: "/ip/{ip}/abuse",
        tags: ["IP"],
        summary: "Abuse contact of an IP address",
        description: `Where to report abuse from an address: the abuse mailbox and phone of the network registration that holds it, with the network (handle, name, range, country, organisation) and the RDAP source. ${NESTING} \`abuse\` is null with a \`reason\` when the registry publishes none. 404 NOT_FOUND for private, reserved or unregistered space; 503 UPSTREAM_UNAVAILABLE when the registry does not answer (the unit still counts).`,
      },
    })
    .output(ipAbuseSchema)
    .query(({ input }) => getIpAbuseOrThrow(input.ip)),

  domainAbuse: meteredProcedure({
    capability: "full",
    endpoint: "domain.abuse",
    input: z.object({ domain: domainName }),
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
        description: `Where to report abuse of a domain (its registrable domain is looked up): the registrar's abuse mailbox and phone from the registry's RDAP answer, with the registrar (name, IANA id) and the RDAP source. ${NESTING} \`abuse\` is null with a \`reason\` when the registry publishes none. 404 DOMAIN_NOT_FOUND when the registry has no such registration; 503 UPSTREAM_UNAVAILABLE when it does not answer (the unit still counts).`,
      },
    })
    .output(domainAbuseSchema)
    .query(({ input }) => getDomainAbuseOrThrow(input.domain)),
});

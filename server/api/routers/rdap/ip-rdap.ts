// GET /ip/{ip}/rdap: IP RDAP summary.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { getIpRdapOrThrow } from "../../../providers/rdap/ip";
import { ipRdapSchema } from "../../../providers/rdap/schema";
import { ipAddress } from "../../schemas";
import { meteredProcedure } from "../../trpc";

export const ipRdapProcedure = meteredProcedure({
  capability: "full",
  endpoint: "ip.rdap",
  input: z.object({ ip: ipAddress }),
  decides: { publicAddress: (input) => input.ip },
  history: (input, out: z.infer<typeof ipRdapSchema>) => ({
    target: input.ip,
    summary: { network: out.name, country: out.country, registry: out.source.registry },
  }),
})
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/ip/{ip}/rdap",
      tags: ["IP"],
      summary: "IP RDAP summary",
      description:
        "The network registration holding the address, from the Regional Internet Registry's RDAP server (found through the IANA bootstrap): " +
        "range and CIDRs, name, handle, country, registration and last-change dates, status, and the abuse contact's email and phone from the " +
        "RDAP entities. 404 NOT_FOUND for private or reserved space and unregistered addresses; 503 UPSTREAM_UNAVAILABLE when the registry " +
        "does not answer (its unit is given back).",
    },
  })
  .output(ipRdapSchema)
  .query(({ input }) => getIpRdapOrThrow(input.ip));

// GET /ip/{ip}/abuse: abuse contact of an IP address.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { getIpAbuseOrThrow } from "../../../abuse/lookup";
import { ipAbuseSchema, type IpAbuse } from "../../../abuse/schemas";
import { ipAddress } from "../../schemas";
import { meteredProcedure } from "../../trpc";
import { NESTING } from "./shared";

export const ipAbuseProcedure = meteredProcedure({
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
      description: `Where to report abuse from an address: the abuse mailbox and phone of the network registration that holds it, with the network (handle, name, range, country, organisation) and the RDAP source. ${NESTING} \`abuse\` is null with a \`reason\` when the registry publishes none. 404 NOT_FOUND for private, reserved or unregistered space; 503 UPSTREAM_UNAVAILABLE when the registry does not answer (its unit is given back).`,
    },
  })
  .output(ipAbuseSchema)
  .query(({ input }) => getIpAbuseOrThrow(input.ip));

// GET /ip/{ip}: IP intelligence (reputation object).
// The procedure, with its contract (meta, input, output) beside its work.
import { getIpReputation } from "../../../ip/reputation";
import { ipReputationSchema } from "../../../ip/schema";
import { DESCRIPTION, procedure } from "./shared";

export const ipLookupProcedure = procedure("ip.lookup")
  .meta({
    openapi: {
      method: "GET",
      path: "/ip/{ip}",
      tags: ["IP"],
      summary: "IP intelligence (reputation object)",
      description: DESCRIPTION,
    },
  })
  .output(ipReputationSchema)
  .query(({ input }) => getIpReputation(input.ip));

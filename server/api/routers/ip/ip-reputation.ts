// GET /ip/{ip}/reputation: IP reputation.
// The procedure, with its contract (meta, input, output) beside its work.
import { getIpReputation } from "../../../ip/reputation";
import { ipReputationSchema } from "../../../ip/schema";
import { DESCRIPTION, procedure } from "./shared";

export const ipReputationProcedure = procedure("ip.reputation")
  .meta({
    openapi: {
      method: "GET",
      path: "/ip/{ip}/reputation",
      tags: ["IP"],
      summary: "IP reputation",
      description: DESCRIPTION,
    },
  })
  .output(ipReputationSchema)
  .query(({ input }) => getIpReputation(input.ip));

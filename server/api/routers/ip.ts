// GET /ip/{ip} and GET /ip/{ip}/reputation: the same reputation object, answered from feeds held in memory.
import { z } from "zod";
import { getIpReputation } from "../../ip/reputation";
import { ipReputationSchema } from "../../ip/schema";
import { ipAddress } from "../schemas";
import { meteredProcedure, router } from "../trpc";

type Reputation = z.infer<typeof ipReputationSchema>;

const DESCRIPTION =
  "Reputation of an IPv4 or IPv6 address: special-purpose classification (bogon, private, ...), origin AS and organisation " +
  "(RouteViews, NRO and DB-IP data, CC BY 4.0), network type (hosting or datacenter from published cloud ranges and a curated hosting-ASN list; " +
  "residential only as a labelled heuristic; otherwise unknown), anonymiser flags kept apart (Tor exit, VPN, proxy, hosting), memberships of " +
  "Spamhaus DROP, DROPv6 and ASN-DROP and the Tor exit list, and a 0-100 risk score with each reason and its points. A list whose feed holds no " +
  "data answers `listed: null` with a reason, never false. `sources` names every feed used, its licence and when it was fetched.";

const procedure = (endpoint: string) =>
  meteredProcedure({
    capability: "full",
    endpoint,
    input: z.object({ ip: ipAddress }),
    history: (input, out: Reputation) => ({
      target: input.ip,
      summary: {
        score: out.risk.score,
        level: out.risk.level,
        asn: out.asn?.number ?? null,
        networkType: out.network.type,
      },
    }),
  });

export const ipRouter = router({
  ipLookup: procedure("ip.lookup")
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
    .query(({ input }) => getIpReputation(input.ip)),
  ipReputation: procedure("ip.reputation")
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
    .query(({ input }) => getIpReputation(input.ip)),
});

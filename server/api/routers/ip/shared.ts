// What several procedures of the ip router share (schemas, helpers), or what other modules import from it.
import { z } from "zod";
import { ipReputationSchema } from "../../../ip/schema";
import { ipAddress } from "../../schemas";
import { meteredProcedure } from "../../trpc";

export type Reputation = z.infer<typeof ipReputationSchema>;

export const DESCRIPTION =
  "Reputation of an IPv4 or IPv6 address: special-purpose classification (bogon, private, ...), origin AS and organisation " +
  "(RouteViews, NRO and DB-IP data, CC BY 4.0), network type (hosting or datacenter from published cloud ranges, X4BNet's datacenter ranges and " +
  "hosting ASNs and a curated hosting-ASN list; internet scanners from the MISP warninglists; residential only as a labelled heuristic; " +
  "otherwise unknown), anonymiser flags kept apart (Tor exit, VPN, proxy, hosting), and in `privacy.classes` each class (tor, vpn, relay, " +
  "hosting, scanner) with its provider, basis, confidence, list and date: a VPN provider's published exit (Mullvad, PIA, Proton VPN) is " +
  "`vpn` at high confidence, an address in a VPN operator's network or ASN (X4BNet lists_vpn) `vpn` at medium, a hosting network that also " +
  "carries VPN exits says VPN-capable; memberships of " +
  "Spamhaus DROP, DROPv6 and ASN-DROP and the Tor exit list, and a 0-100 risk score with each reason and its points. A list whose feed holds no " +
  "data answers `listed: null` with a reason, never false. `sources` names every feed used, its licence and when it was fetched.";

export const procedure = (endpoint: string) =>
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

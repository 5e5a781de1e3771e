// POST /cidr/check: CIDR range check.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { checkCidrOrThrow } from "../../../cidr/check";
import { parseIpv4Cidr } from "../../../cidr/range";
import { cidrCheckResultSchema, type CidrCheckResult } from "../../../cidr/schemas";
import { meteredProcedure } from "../../trpc";
import { unansweredTargets } from "../blocklists/shared";

const cidrInput = z.object({
  cidr: z
    .string()
    .max(64)
    .superRefine((v, ctx) => {
      const r = parseIpv4Cidr(v);
      if ("error" in r) ctx.addIssue({ code: "custom", message: r.error });
    })
    .describe(
      "An IPv4 range, e.g. 203.0.113.0/29 (a bare address is read as /32), or one written in IPv4-mapped IPv6, e.g. ::ffff:203.0.113.0/125",
    ),
});

export const cidrCheckProcedure = meteredProcedure({
  capability: "full",
  endpoint: "cidr.check",
  input: cidrInput,
  // Needs bulk lookups whatever the range (403 BULK_LOOKUPS_REQUIRED); its units and cost: server/api/charging.ts.
  bulk: "always",
  // An address's reputation comes from shipped data; its blocklist check is what the range check asks upstream.
  unanswered: (_input, out: CidrCheckResult) =>
    unansweredTargets(
      out.addresses.map((a) => ({ target: a.ip, lists: a.blocklists.lists })),
      "address",
    ),
  history: (_input, out: CidrCheckResult) => ({
    target: out.cidr,
    summary: { checked: out.summary.checked, listed: out.summary.listed, sampling: out.sampling },
  }),
})
  .meta({
    openapi: {
      method: "POST",
      path: "/cidr/check",
      tags: ["Blocklists"],
      summary: "CIDR range check",
      description:
        'Checks an IPv4 range (body `{"cidr": "203.0.113.0/29"}`). For /29 to /32 every address is checked (2^(32-prefix) units: 8 for a /29, 1 for a /32); for wider ranges 7 addresses spread across the range are checked (7 units): the first and last host addresses and those at 1/6, 2/6, 3/6, 4/6 and 5/6 of the range. Per address: the IP reputation object of /ip/{ip}/reputation (classification, AS, network type, anonymiser flags, list memberships, risk score) and the DNS blocklist results of /blocklists/check. Host bits in the input are cleared (203.0.113.5/29 is 203.0.113.0/29). A range written in IPv4-mapped IPv6 is the IPv4 range it names (`::ffff:8.8.8.0/120` is 8.8.8.0/24, priced and answered as such), with a prefix from /96 to /128 (a shorter one reaches beyond the IPv4 addresses and is refused); other IPv6 ranges are refused (the unit rule counts sampled IPv4 addresses). 400 for an invalid range (no unit). An address for which every blocklist was `unavailable` was not answered: its unit is given back (a ledger row with the reason; the quota headers count without it).',
    },
  })
  .output(cidrCheckResultSchema)
  .mutation(({ input }) => checkCidrOrThrow(input.cidr));

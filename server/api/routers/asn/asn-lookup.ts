// GET /asn/{asn}: ASN intelligence.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { getAsnIntelOrThrow } from "../../../asn/intel";
import { asnIntelSchema } from "../../../asn/schema";
import { meteredProcedure } from "../../trpc";

/** AS numbers are 32-bit; 0 and 4294967295 are reserved (RFC 7607, RFC 7300) and never announced. */
const asnNumber = z
  .string()
  .trim()
  .transform((s) => s.replace(/^AS/i, ""))
  .refine((s) => /^\d{1,10}$/.test(s) && Number(s) >= 1 && Number(s) <= 4294967294, {
    message: "must be an AS number from 1 to 4294967294",
  })
  .transform(Number)
  // Documented as the spec's integer (a client sends 13335); `AS13335` is also accepted.
  .meta({ override: { type: "integer", minimum: 1, maximum: 4294967294 } });

export const asnLookupProcedure = meteredProcedure({
  capability: "full",
  endpoint: "asn.lookup",
  input: z.object({ asn: asnNumber }),
  decides: { delegableAsn: (input) => input.asn },
  history: (input, out: z.infer<typeof asnIntelSchema>) => ({
    target: `AS${input.asn}`,
    summary: { organization: out.organization, hosting: out.hosting.value, registry: out.registry },
  }),
})
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/asn/{asn}",
      tags: ["ASN"],
      summary: "ASN intelligence",
      description:
        "Name, organisation, country and registry of an autonomous system; announced IPv4 and IPv6 space (ranges, covering CIDR prefixes, " +
        "addresses) from the shipped RouteViews/NRO/DB-IP routing data; hosting classification (curated hosting-ASN list, or a labelled " +
        "heuristic on the organisation name); Spamhaus ASN-DROP membership. Name, country and dates come from the registry's RDAP record; when " +
        "RDAP is unavailable those fields are null and `rdapReason` says why. 404 NOT_FOUND when neither source knows the ASN; 503 when the " +
        "ASN is not in the shipped data and its registry cannot be reached. `AS13335` and `13335` are both accepted.",
    },
  })
  .output(asnIntelSchema)
  .query(({ input }) => getAsnIntelOrThrow(input.asn));

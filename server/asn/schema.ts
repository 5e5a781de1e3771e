// zod contract of the ASN intelligence object.
import { z } from "zod";
import { feedSourceSchema } from "../ip/schema";
import { autnumRdapSchema } from "../providers/rdap/schema";

export const asnIntelSchema = z.object({
  asn: z.number().int(),
  name: z.string().nullable().describe("AS name from the registry's RDAP record"),
  organization: z.string().nullable(),
  country: z.string().nullable(),
  registry: z.string().nullable().describe("Regional Internet Registry (from the IANA bootstrap)"),
  prefixes: z
    .object({
      ipv4: z.object({ ranges: z.number().int(), prefixes: z.number().int(), addresses: z.number().int() }),
      ipv6: z.object({ ranges: z.number().int(), prefixes: z.number().int(), slash48s: z.number() }),
    })
    .nullable()
    .describe(
      "Announced space in the shipped routing data: merged ranges, the CIDR prefixes covering them, and their size",
    ),
  prefixesReason: z.string().nullable(),
  hosting: z.object({
    value: z.boolean(),
    kind: z
      .enum(["cloud", "platform", "hosting", "cdn"])
      .nullable()
      .describe(
        "platform for a platform's own network (Google's AS15169: its own services, not machines anyone can rent)",
      ),
    provider: z.string().nullable(),
    basis: z.string().nullable(),
  }),
  lists: z.array(
    z.object({
      list: z.string(),
      name: z.string(),
      listed: z.boolean().nullable(),
      detail: z.string().nullable(),
      reason: z.string().nullable(),
    }),
  ),
  rdap: autnumRdapSchema.nullable(),
  rdapReason: z.string().nullable(),
  sources: z.array(feedSourceSchema),
  checkedAt: z.string(),
});

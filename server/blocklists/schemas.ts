// The blocklist check result of /blocklists/check (and of each address in /cidr/check).
import { z } from "zod";

export const listResultSchema = z.object({
  zone: z.string(),
  operator: z.string().nullable(),
  status: z
    .enum(["listed", "not_listed", "refused", "unavailable"])
    .describe(
      "refused: the operator answered with an error code instead of a verdict (e.g. Spamhaus 127.255.255.254 for public resolvers). unavailable: no usable answer in time. Neither means listed",
    ),
  returnCodes: z
    .array(z.object({ code: z.string(), meaning: z.string() }))
    .describe("A records returned by the list, each with its documented meaning"),
  detail: z
    .string()
    .nullable()
    .describe("The list's TXT explanation for a listing, or why the result is refused or unavailable"),
  queried: z.array(z.string()).describe("DNS names queried"),
  website: z.string().nullable().describe("Where to look up or request removal"),
  durationMs: z.number().int(),
});

export const targetResultSchema = z.object({
  target: z.string().describe("As submitted"),
  kind: z.enum(["ipv4", "ipv6", "domain"]),
  normalized: z.string(),
  status: z
    .enum(["listed", "not_listed", "incomplete"])
    .describe(
      "listed: at least one list lists it; not_listed: every list answered and none lists it (or the target is a special-use name such as foo.internal, which no public list can hold and which is sent to none: every list is then under skipped, with the reason); incomplete: none lists it but some lists refused or were unavailable",
    ),
  listedOn: z.array(z.string()),
  lists: z.array(listResultSchema),
  skipped: z
    .array(z.object({ zone: z.string(), reason: z.string() }))
    .describe("Configured lists that do not cover this kind of target, or that a special-use name was not sent to"),
});

export const blocklistSourcesSchema = z.object({
  resolver: z.object({ servers: z.array(z.string()) }),
  ipZones: z.array(z.string()),
  domainZones: z.array(z.string()),
});

export const blocklistCheckResultSchema = z.object({
  results: z.array(targetResultSchema),
  summary: z.object({ targets: z.number().int(), listed: z.number().int(), incomplete: z.number().int() }),
  sources: blocklistSourcesSchema,
  checkedAt: z.string(),
});

export type ListResult = z.infer<typeof listResultSchema>;
export type TargetResult = z.infer<typeof targetResultSchema>;
export type BlocklistCheckResult = z.infer<typeof blocklistCheckResultSchema>;

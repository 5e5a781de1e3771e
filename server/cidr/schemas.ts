// The CIDR check result of /cidr/check.
import { z } from "zod";
import { blocklistSourcesSchema, targetResultSchema } from "../blocklists/schemas";
import { ipReputationSchema } from "../ip/schema";

export const cidrCheckResultSchema = z.object({
  cidr: z.string().describe("The range checked, normalised to its network address"),
  input: z.string(),
  hostBitsCleared: z.boolean().describe("The input had host bits set and was read as the enclosing network"),
  prefixLength: z.number().int(),
  totalAddresses: z.number().int(),
  sampling: z.enum(["every_address", "spread_sample"]),
  samplingDescription: z.string(),
  units: z.number().int().describe("Lookup units consumed: one per checked address"),
  addresses: z.array(
    z.object({
      ip: z.string(),
      reputation: ipReputationSchema.describe(
        "The IP reputation object of GET /ip/{ip}/reputation, from shipped and refreshed data",
      ),
      blocklists: targetResultSchema.describe("The DNS blocklist results of POST /blocklists/check"),
    }),
  ),
  summary: z.object({
    checked: z.number().int(),
    listed: z.number().int(),
    incomplete: z.number().int(),
    listedAddresses: z.array(z.string()),
  }),
  sources: blocklistSourcesSchema,
  checkedAt: z.string(),
});

export type CidrCheckResult = z.infer<typeof cidrCheckResultSchema>;

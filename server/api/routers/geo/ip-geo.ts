// GET /ip/{ip}/geo: IP geolocation.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { lookupGeo } from "../../../geo/lookup";
import { ipAddress } from "../../schemas";
import { meteredProcedure } from "../../trpc";

const geoResult = z.object({
  ip: z.string(),
  version: z.union([z.literal(4), z.literal(6)]),
  scope: z
    .string()
    .describe("public, private, loopback, link_local, unique_local, carrier_grade_nat, multicast, reserved, ..."),
  country: z.object({ code: z.string(), name: z.string().nullable() }).nullable(),
  region: z.string().nullable(),
  district: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  timezone: z.string().nullable(),
  accuracy: z.literal("city").nullable(),
  reason: z.string().nullable().describe("Why location fields are null, when they are"),
  source: z.object({
    name: z.string(),
    license: z.string(),
    attribution: z.string(),
    attributionUrl: z.string(),
    databaseDate: z.string(),
  }),
});

export const ipGeoProcedure = meteredProcedure({
  capability: "geolocation",
  endpoint: "ip.geo",
  input: z.object({ ip: ipAddress }),
  history: (input, out: z.infer<typeof geoResult>) => ({
    target: input.ip,
    summary: { country: out.country?.code ?? null, city: out.city, scope: out.scope },
  }),
})
  .meta({
    openapi: {
      method: "GET",
      path: "/ip/{ip}/geo",
      tags: ["IP"],
      summary: "IP geolocation",
      description:
        "Country, region, city, coordinates and time zone of an IPv4 or IPv6 address from the embedded DB-IP IP to City Lite database (CC BY 4.0, IP Geolocation by DB-IP, https://db-ip.com). Private, reserved and unlisted addresses answer 200 with null location fields and a `reason`.",
    },
  })
  .output(geoResult)
  .query(({ input }) => lookupGeo(input.ip));

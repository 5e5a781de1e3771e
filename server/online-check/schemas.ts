import { z } from "zod";
import { connectionErrorSchema, sourceSchema, timingSchema } from "../hosts/schemas";

export const probeResultSchema = z.object({
  location: z.string().describe("Probe location name from SERVICE_PROBE_LOCATIONS"),
  reachable: z.boolean().describe("An HTTP response was received from this location"),
  up: z.boolean().describe("The final status is below 500"),
  status: z.number().int().nullable(),
  finalUrl: z.string().nullable(),
  redirects: z.number().int().describe("Redirects followed"),
  address: z.string().nullable(),
  timing: timingSchema.nullable(),
  error: z
    .object({
      kind: z.enum([
        ...connectionErrorSchema.shape.kind.options,
        "blocked_redirect",
        "too_many_redirects",
        "probe_unavailable",
      ]),
      message: z.string(),
    })
    .nullable(),
  checkedAt: z.string(),
});

export const onlineCheckResultSchema = z.object({
  url: z.string(),
  online: z.boolean().describe("Up from at least one location"),
  upLocations: z.number().int(),
  totalLocations: z.number().int(),
  locations: z.array(probeResultSchema),
  checkedAt: z.string(),
  sources: z.array(sourceSchema),
});

export type ProbeResult = z.infer<typeof probeResultSchema>;
export type OnlineCheckResult = z.infer<typeof onlineCheckResultSchema>;

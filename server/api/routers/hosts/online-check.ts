// POST /online-check: global reachability check.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { assertPublicTargetOrThrow, parseFetchUrlOrThrow, parseTargetUrl } from "../../../net";
import {
  onlineCheckRateLimit,
  onlineCheckRateWindowSeconds,
  onlineCheckResultSchema,
  runOnlineCheck,
  type OnlineCheckResult,
} from "../../../online-check";
import { meteredProcedure } from "../../trpc";
import { SSRF_NOTE } from "./shared";

const onlineCheckInput = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .refine((u) => parseTargetUrl(u) !== null, { message: "must be an absolute http(s) URL without credentials" })
    .describe("Absolute http(s) URL to check"),
});

export const onlineCheckProcedure = meteredProcedure({
  capability: "full",
  endpoint: "online-check",
  input: onlineCheckInput,
  rateLimit: {
    name: "online-check",
    limit: onlineCheckRateLimit,
    windowSeconds: onlineCheckRateWindowSeconds,
    what: "online checks",
  },
  preflight: async (input) => {
    parseFetchUrlOrThrow(input.url);
    await assertPublicTargetOrThrow(input.url);
  },
  // Refused as every route that takes a host name refuses a special-use one (the SSRF guard would resolve it).
  decides: { publicName: (input) => parseTargetUrl(input.url)!.host },
  history: (input, out: OnlineCheckResult) => ({
    target: input.url,
    summary: { online: out.online, up: out.upLocations, of: out.totalLocations },
  }),
})
  .meta({
    errors: ["TARGET_FORBIDDEN"],
    openapi: {
      method: "POST",
      path: "/online-check",
      tags: ["Hosts"],
      summary: "Global reachability check",
      description: `Requests the URL from each configured probe location (SERVICE_PROBE_LOCATIONS; this server by default) in parallel and reports, per location, whether a response arrived, the status, timing and the error. \`online\` is true when at least one location got a status below 500. Every probe is bounded by a timeout, so the answer comes within seconds. Burst-limited per workspace. ${SSRF_NOTE}`,
    },
  })
  .output(onlineCheckResultSchema)
  .mutation(({ input }) => runOnlineCheck(input.url));

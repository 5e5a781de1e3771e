// Website security scans: POST /scans (full, 1 unit), GET /scans/{id} (unmetered; own workspace, or anyone for a
// public or unlisted scan), GET /scans?host= (the workspace's history of a host) and GET /scans/leaderboard.
import { z } from "zod";
import { AppError } from "../../errors";
import { getLeaderboard } from "../../scans/public";
import { leaderboardSchema, scanHistorySchema, scanSchema, VISIBILITIES, type ScanView } from "../../scans/schemas";
import { SCORING_DESCRIPTION } from "../../scans/scoring-docs";
import { parseScanTarget, startScan, vetScanTargetOrThrow } from "../../scans/start";
import { getScanOrThrow, listHostScans } from "../../scans/store";
import { meteredProcedure, publicProcedure, router, workspaceProcedure } from "../trpc";
import type { Context } from "../context";

const scanUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine((u) => parseScanTarget(u) !== null, { message: "must be an http(s) URL or a host name, without credentials" })
  .describe("The site to scan: an absolute http(s) URL, or a host name (scanned as https://host/)");

/** No key header: anonymous. A key header (or a dashboard session): it must authenticate; its workspace is the viewer. */
async function viewerWorkspace(ctx: Context): Promise<string | null> {
  const h = ctx.requestHeaders;
  if (ctx.via === "api" && !h.has("authorization") && !h.has("x-api-key")) return null;
  if (ctx.via === "dashboard" && !ctx.sessionUser) return null;
  return (await ctx.authenticate()).workspaceId;
}

const optionalKeyProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const viewer = await viewerWorkspace(ctx);
  return next({ ctx: { viewer } });
});

const SSRF_NOTE =
  "The target must be on the public internet: a host that is, or resolves to, a loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved or cloud-metadata address is refused with 400 TARGET_FORBIDDEN before any unit is reserved; a name that does not resolve is 404 DOMAIN_NOT_FOUND (the DNS lookup was made, so the unit counts). Every redirect hop is vetted again.";

export const scansRouter = router({
  create: meteredProcedure({
    capability: "full",
    endpoint: "scan",
    input: z.object({
      url: scanUrl,
      visibility: z
        .enum(VISIBILITIES)
        .default("private")
        .describe(
          "private: only this workspace; unlisted: anyone with the id, never listed or badged; public: badges and the leaderboard",
        ),
    }),
    preflight: (input) => vetScanTargetOrThrow(parseScanTarget(input.url)!),
    decides: { publicName: (input) => parseScanTarget(input.url)!.host },
    history: (input, out: ScanView) => ({
      target: out.host,
      summary: { scanId: out.id, grade: out.grade, score: out.score, status: out.status },
    }),
  })
    .meta({
      errors: ["TARGET_FORBIDDEN", "DOMAIN_NOT_FOUND"],
      accepted: "when-running",
      openapi: {
        method: "POST",
        path: "/scans",
        tags: ["Scans"],
        summary: "Scan a website",
        description: `Scans the site's HTTP security posture in the manner of Mozilla's HTTP Observatory, together with its TLS certificate and its domain's CAA, DNSSEC, SPF and DMARC, and answers with the graded result (200) when it finishes within SERVICE_SCAN_WAIT_MS (8 s by default); otherwise 202 with the scan's id and \`status: "running"\`; read it later with GET /scans/{id}. ${SSRF_NOTE} The unit counts also for a site that cannot be reached: the answer is then \`status: "failed"\` with the reason.\n\n${SCORING_DESCRIPTION}`,
      },
    })
    .output(scanSchema)
    .mutation(async ({ ctx, input }) => {
      const { scan, finished } = await startScan(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        target: parseScanTarget(input.url)!,
        visibility: input.visibility,
      });
      // The REST API answers with this status instead of 200 (see server/api/rest/handler.ts).
      if (!finished) ctx.resHeaders.set("x-service-status", "202");
      return scan;
    }),

  leaderboard: optionalKeyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/scans/leaderboard",
        tags: ["Scans"],
        summary: "Leaderboard of public scans",
        description:
          "The best graded and the most improved public scans of the last 30 days, one entry per host (its latest public scan; improvement is against its earliest public scan in the window). Private and unlisted scans never appear.",
        protect: false,
      },
    })
    .input(z.object({}).optional())
    .output(leaderboardSchema)
    .query(({ ctx }) => getLeaderboard(ctx.db)),

  get: optionalKeyProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "GET",
        path: "/scans/{id}",
        tags: ["Scans"],
        summary: "Read a scan",
        description:
          "One scan with its result (or `status: \"running\"`). Your workspace's scans of any visibility; another workspace's scan only when it is public or unlisted; anything else is 404 NOT_FOUND, exactly as for an id that does not exist. The key is optional for public and unlisted scans.",
        protect: false,
      },
    })
    .input(z.object({ id: z.string().trim().min(1).max(100) }))
    .output(scanSchema)
    .query(({ ctx, input }) => getScanOrThrow(ctx.db, input.id, ctx.viewer)),

  list: workspaceProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/scans",
        tags: ["Scans"],
        summary: "Scan history of a host",
        description:
          "Your workspace's scans of one host, newest first (at most 50), each with its score change and the tests whose result changed since the previous finished scan.",
      },
    })
    .input(z.object({ host: z.string().trim().min(1).max(300).describe("Host name as scanned, e.g. example.com") }))
    .output(scanHistorySchema)
    .query(({ ctx, input }) => {
      const target = parseScanTarget(input.host);
      if (!target) throw new AppError("INVALID_REQUEST", "host must be a host name or URL.");
      return listHostScans(ctx.db, ctx.principal.workspaceId, target.host);
    }),
});

// POST /scans: scan a website.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { scanSchema, VISIBILITIES, type ScanView } from "../../../site-scans/schemas";
import { SCORING_DESCRIPTION } from "../../../site-scans/scoring-docs";
import { parseScanTarget, startScan, vetScanTargetOrThrow } from "../../../site-scans/start";
import { meteredProcedure } from "../../trpc";

const scanUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine((u) => parseScanTarget(u) !== null, { message: "must be an http(s) URL or a host name, without credentials" })
  .describe("The site to scan: an absolute http(s) URL, or a host name (scanned as https://host/)");

const SSRF_NOTE =
  "The target must be on the public internet: a special-use name (`localhost`, `.internal`, `.test` and the others below) is 404 DOMAIN_NOT_FOUND first, free, with no resolver asked; any other host that is, or resolves to, a loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved or cloud-metadata address is refused with 400 TARGET_FORBIDDEN before any unit is reserved; a name that does not resolve is 404 DOMAIN_NOT_FOUND (the DNS lookup was made, so the unit counts). Every redirect hop is vetted again.";

export const createProcedure = meteredProcedure({
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
  });

// The dashboard's "what would this scan cost" (dashboard only: no OpenAPI meta, so not under /v1). It reads the
// lockfile as POST /vulnerabilities/scan would and answers the units, the skipped dependencies and whether the scan
// can run for this workspace now, without reserving or recording anything, so the cost is shown before it is paid.
import { z } from "zod";
import { AppError } from "../../../errors";
import type { Entitlements } from "../../../plans/catalog";
import { readUsage } from "../../../quota/reserve";
import { LOCKFILE_FORMATS, FORMAT_FILE_NAMES } from "../../../vulnerabilities/lockfiles/types";
import { MAX_SCAN_BYTES, readLockfileOnce } from "../../../vulnerabilities/lockfile-scan/read";
import { scanInputShape } from "../../../vulnerabilities/lockfile-scan/schemas";
import { BULK_PLANS, orList } from "../../contract-text";
import { authenticated, withinBurstLimit } from "../../trpc";

const scanPreviewOutput = z.object({
  format: z.enum(LOCKFILE_FORMATS),
  file: z.string().describe("What the messages call the file, e.g. package-lock.json"),
  packages: z.number().int().describe("Distinct package versions: the scan's units"),
  skipped: z.array(z.object({ name: z.string(), spec: z.string(), reason: z.string(), line: z.number().nullable() })),
  bulkRequired: z.boolean().describe("More than one package: the scan needs the bulk entitlement"),
  unitsRemaining: z.number().int(),
  canRun: z.boolean(),
  cannotRunReason: z.string().nullable().describe("Why the scan would be refused now, in a sentence"),
});

/** Why the scan would be refused before any unit is reserved, in the order the ladder checks (bulk, then quota). */
function cannotRunReason(a: {
  entitlements: Entitlements;
  lookupsBlocked: string | null;
  packages: number;
  remaining: number;
}): string | null {
  if (a.lookupsBlocked) return a.lookupsBlocked;
  if (a.packages > 1 && !a.entitlements.bulk)
    return `A scan of more than one package needs bulk lookups, which this workspace's plan does not include (${orList(BULK_PLANS().map((p) => p.name))} do). Scan a file of one package, or change the plan.`;
  if (a.packages > a.remaining)
    return `This scan needs ${a.packages.toLocaleString("en-US")} units and ${a.remaining.toLocaleString("en-US")} are left this month.`;
  return null;
}

export const scanPreviewProcedure = authenticated
  .meta({
    requires: { capability: "vulnerabilities" },
    freeText: ["lockfile"],
    // The same lockfile as the scan, with the scan's own limit: the dashboard endpoint gives the field that room.
    rawBody: { field: "lockfile", maxBytes: MAX_SCAN_BYTES },
    // Free but not free to compute: each call parses up to MAX_SCAN_BYTES (the parse is kept for the scan after it).
    rateLimit: { name: "scan-preview", limit: () => 60, windowSeconds: () => 60, what: "scan previews" },
  })
  .input(z.object(scanInputShape))
  .use(withinBurstLimit)
  .output(scanPreviewOutput)
  .mutation(async ({ ctx, input }) => {
    // The parse stays in read.ts's short memo (a minute at most), so the scan that usually follows reuses it.
    const read = readLockfileOnce(input.lockfile, input.format);
    if (!read.ok) throw new AppError("INVALID_REQUEST", read.problem);
    const { format, packages, skipped } = read.lockfile;
    const p = ctx.principal;
    const usage = await readUsage(ctx.db, p.workspaceId, p.entitlements.monthlyUnits);
    const reason = cannotRunReason({
      entitlements: p.entitlements,
      lookupsBlocked: p.kind === "member" ? p.lookupsBlocked : null,
      packages: packages.length,
      remaining: usage.remaining,
    });
    return {
      format,
      file: FORMAT_FILE_NAMES[format],
      packages: packages.length,
      skipped,
      bulkRequired: packages.length > 1,
      unitsRemaining: usage.remaining,
      canRun: reason === null,
      cannotRunReason: reason,
    };
  });

// GET /scans: scan history of a host.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { AppError } from "../../../errors";
import { scanHistorySchema } from "../../../site-scans/schemas";
import { parseScanTarget } from "../../../site-scans/start";
import { listHostScans } from "../../../site-scans/store";
import { workspaceProcedure } from "../../trpc";

export const listProcedure = workspaceProcedure
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
  });

// GET /scans/hosts: hosts your workspace has scanned.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { pageCursor } from "../../../pages";
import { timestampSchema } from "../../../timestamps";
import { scannedHostsSchema } from "../../../site-scans/schemas";
import { listScannedHosts } from "../../../site-scans/store";
import { workspaceProcedure } from "../../trpc";

export const hostsProcedure = workspaceProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/scans/hosts",
      tags: ["Scans"],
      summary: "Hosts your workspace has scanned",
      description:
        "Every host your workspace has scanned, the most recently scanned first, with its latest scan (grade, score, status, visibility) and how many scans it has; GET /scans?host= gives one host's history. Pages of `limit` hosts (default 50); pass `next_cursor` as `cursor` for the next page.",
    },
  })
  .input(
    z
      .object({
        limit: z.coerce.number().int().min(1).max(100).default(50),
        cursor: pageCursor(timestampSchema).describe("`next_cursor` of the previous page"),
      })
      .optional(),
  )
  .output(scannedHostsSchema)
  .query(({ ctx, input }) =>
    listScannedHosts(ctx.db, ctx.principal.workspaceId, {
      limit: input?.limit ?? 50,
      ...(input?.cursor ? { before: input.cursor } : {}),
    }),
  );

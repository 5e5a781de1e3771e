// GET /scans/{id}: read a scan.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { scanSchema } from "../../../site-scans/schemas";
import { getScanOrThrow } from "../../../site-scans/store";
import { optionalKeyProcedure } from "./shared";

export const getProcedure = optionalKeyProcedure
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
  .query(({ ctx, input }) => getScanOrThrow(ctx.db, input.id, ctx.viewer));

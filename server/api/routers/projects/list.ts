// GET /projects: the workspace's projects.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { projectListItemSchema } from "../../../projects/schemas";
import { listProjects } from "../../../projects/store";
import { page, projectsProcedure, TAGS } from "./shared";

export const listProcedure = projectsProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/projects",
      tags: TAGS,
      summary: "List projects",
      description:
        "The projects this workspace has scanned (POST /vulnerabilities/scan?project=acme/web) and whose scans are still within the history window, by name, each with its number of stored scans and its latest scan's summary (packages, vulnerable, malware, findings, and new, fixed and unchanged against its base). Paginate with `limit` and `cursor` (the previous page's `next_cursor`; one that names none of this workspace's projects, such as one deleted since, is 400 INVALID_REQUEST).",
    },
  })
  .input(z.object(page))
  .output(z.object({ items: z.array(projectListItemSchema), next_cursor: z.string().nullable() }))
  .query(({ ctx, input }) => listProjects(ctx.db, ctx.principal.workspaceId, input));

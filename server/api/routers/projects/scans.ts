// GET /projects/{name}/scans: a project's scan history.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { refSchema } from "../../../projects/names";
import { projectScanSummarySchema } from "../../../projects/schemas";
import { listProjectScansOrThrow } from "../../../projects/store";
import { NAME_IN_PATH, nameParam, page, projectsProcedure, TAGS } from "./shared";

export const scansProcedure = projectsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/projects/{name}/scans",
      tags: TAGS,
      summary: "A project's scans",
      description: `The project's stored scans, newest first, of every ref or of \`ref\`: each with its base and its counts (packages, vulnerable, malware, findings, new, fixed, unchanged), the dashboard's "new and fixed over time". Paginate with \`limit\` and \`cursor\` (the previous page's \`next_cursor\`; one that names none of this project's scans, such as one purged since, is 400 INVALID_REQUEST). A project with no scan in this workspace is 404 NOT_FOUND, whatever the query. The whole answer of one: GET /projects/{name}/scans/{id}. ${NAME_IN_PATH}`,
    },
  })
  .input(z.object({ ...nameParam, ref: refSchema.optional().describe("Only this ref's scans"), ...page }))
  .output(z.object({ items: z.array(projectScanSummarySchema), next_cursor: z.string().nullable() }))
  .query(({ ctx, input }) => listProjectScansOrThrow(ctx.db, ctx.principal.workspaceId, input.name, input));

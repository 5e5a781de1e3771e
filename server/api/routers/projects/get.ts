// GET /projects/{name}: a project, its refs and open findings.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { projectSchema } from "../../../projects/schemas";
import { getProjectOrThrow } from "../../../projects/store";
import { NAME_IN_PATH, nameParam, projectsProcedure, TAGS } from "./shared";

export const getProcedure = projectsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/projects/{name}",
      tags: TAGS,
      summary: "Read a project",
      description: `A project: each ref with its number of stored scans and its latest scan's summary (the default ref first), the open findings (those of the default ref's latest scan, or of the latest scan when the default ref has none) and the monitor watching it, if any (POST /monitors with \`checks: ["project"]\` and the name as \`target\`). ${NAME_IN_PATH}`,
    },
  })
  .input(z.object(nameParam))
  .output(projectSchema)
  .query(({ ctx, input }) => getProjectOrThrow(ctx.db, ctx.principal.workspaceId, input.name));

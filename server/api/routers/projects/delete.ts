// DELETE /projects/{name}: forget a project.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { deleteProjectOrThrow } from "../../../monitors/project-deletion";
import { actorOf } from "../../actor";
import { NAME_IN_PATH, nameParam, projectsProcedure, TAGS } from "./shared";

export const deleteProcedure = projectsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "DELETE",
      path: "/projects/{name}",
      tags: TAGS,
      summary: "Delete a project",
      description: `Deletes every stored scan of the project, of all refs, as an audit event (\`audit.project.deleted\`); its lookup history entries stay. The monitor watching it (checks \`["project"]\`) is deleted with it, as DELETE /monitors/{id} deletes one (its runs, alerts and queued emails, with \`audit.monitor.deleted\`), since it would have nothing left to scan; \`monitors_deleted\` lists its id. All of it is one change: a request that fails leaves the project and its monitor as they were, and can be retried. ${NAME_IN_PATH}`,
    },
  })
  .input(z.object(nameParam))
  .output(
    z.object({
      name: z.string(),
      deleted: z.literal(true),
      scans: z.number().int(),
      monitors_deleted: z.array(z.string()).describe("The monitors that watched the project, deleted with it"),
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const by = { workspaceId: ctx.principal.workspaceId, actor: actorOf(ctx), requestId: ctx.requestId };
    return deleteProjectOrThrow(ctx.db, { ...by, entitlements: ctx.principal.entitlements, name: input.name });
  });

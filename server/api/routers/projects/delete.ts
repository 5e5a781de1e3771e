// DELETE /projects/{name}: forget a project.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { deleteProjectOrThrow } from "../../../projects/store";
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
      description: `Deletes every stored scan of the project, of all refs, as an audit event (\`audit.project.deleted\`); its lookup history entries stay. A monitor watching it stays too and reports its check as failing until the project is scanned again or the monitor is deleted (DELETE /monitors/{id}). ${NAME_IN_PATH}`,
    },
  })
  .input(z.object(nameParam))
  .output(z.object({ name: z.string(), deleted: z.literal(true), scans: z.number().int() }))
  .mutation(({ ctx, input }) =>
    deleteProjectOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      name: input.name,
      actor: actorOf(ctx),
      requestId: ctx.requestId,
    }),
  );

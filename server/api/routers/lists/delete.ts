// DELETE /lists/{id}: delete a named list.
// The procedure, with its contract (meta, input, output) beside its work.
import { deleteListOrThrow } from "../../../lists/lists";
import { deletedSchema, listIdSchema } from "../../../lists/schemas";
import { z } from "zod";
import { listsProcedure, TAGS, change } from "./shared";

export const deleteProcedure = listsProcedure
  .meta({
    errors: ["NOT_FOUND", "CONFLICT"],
    openapi: {
      method: "DELETE",
      path: "/lists/{id}",
      tags: TAGS,
      summary: "Delete a named list",
      description:
        "Deletes the list and its items. While a rule names the list in in_list() it cannot be deleted: 409 CONFLICT naming the rules.",
    },
  })
  .input(z.object({ id: listIdSchema }))
  .output(deletedSchema)
  .mutation(({ ctx, input }) => deleteListOrThrow(ctx.db, { ...change(ctx), id: input.id }));

// DELETE /lists/{id}/items/{item}: remove an item from a named list.
// The procedure, with its contract (meta, input, output) beside its work.
import { deleteItemOrThrow } from "../../../lists/items";
import { deletedSchema, listIdSchema } from "../../../lists/schemas";
import { z } from "zod";
import { listsProcedure, TAGS, change } from "./shared";

export const deleteItemProcedure = listsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "DELETE",
      path: "/lists/{id}/items/{item}",
      tags: TAGS,
      summary: "Remove an item from a named list",
      description: "Removes one item (by its id) at once; 404 NOT_FOUND for an unknown item or list.",
    },
  })
  .input(z.object({ id: listIdSchema, item: z.string().trim().min(1).max(64) }))
  .output(deletedSchema)
  .mutation(({ ctx, input }) => deleteItemOrThrow(ctx.db, { ...change(ctx), id: input.id, itemId: input.item }));

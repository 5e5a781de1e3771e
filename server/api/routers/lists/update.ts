// PATCH /lists/{id}: rename or describe a named list.
// The procedure, with its contract (meta, input, output) beside its work.
import { updateListOrThrow } from "../../../lists/lists";
import { listRecordSchema, listUpdateSchema } from "../../../lists/schemas";
import { listsProcedure, TAGS, change } from "./shared";

export const updateProcedure = listsProcedure
  .meta({
    errors: ["NOT_FOUND", "CONFLICT"],
    openapi: {
      method: "PATCH",
      path: "/lists/{id}",
      tags: TAGS,
      summary: "Rename or describe a named list",
      description:
        "Changes `name` and/or `description` (`null` clears it; the kind never changes); at least one is required (400 INVALID_REQUEST otherwise). Renaming a list a rule uses, or to a name already taken, is 409 CONFLICT.",
    },
  })
  .input(listUpdateSchema)
  .output(listRecordSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateListOrThrow(ctx.db, { ...change(ctx), id, changes });
  });

// GET /lists/{id}/items: list a named list's items.
// The procedure, with its contract (meta, input, output) beside its work.
import { listItems } from "../../../lists/items";
import { itemListInputSchema, itemPageSchema } from "../../../lists/schemas";
import { listsProcedure, TAGS } from "./shared";

export const itemsProcedure = listsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/lists/{id}/items",
      tags: TAGS,
      summary: "List a named list's items",
      description:
        "Items by value, each with its note, `expires_at` and `expired` (an expired item no longer matches and is deleted by the retention purge). `query` keeps items whose value or note contains it (any case; `_` and `%` are characters like any other); paginate with `limit` and `cursor` (the previous page's `next_cursor`, an item's value; one that names none of this list's items, such as one deleted or purged since, is 400 INVALID_REQUEST).",
    },
  })
  .input(itemListInputSchema)
  .output(itemPageSchema)
  .query(({ ctx, input }) => {
    const { id, ...page } = input;
    return listItems(ctx.db, ctx.principal.workspaceId, id, page);
  });

// GET /lists: list named lists.
// The procedure, with its contract (meta, input, output) beside its work.
import { listLists } from "../../../lists/lists";
import { listListInputSchema, listPageSchema } from "../../../lists/schemas";
import { listsProcedure, TAGS, ABOUT } from "./shared";

export const listProcedure = listsProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/lists",
      tags: TAGS,
      summary: "List named lists",
      description: `This workspace's lists by name, each with its item count and the rules that use it; paginate with \`limit\` and \`cursor\` (the previous page's \`next_cursor\`, a list's name; one that names none of this workspace's lists, such as one renamed or deleted since, is 400 INVALID_REQUEST). ${ABOUT}`,
    },
  })
  .input(listListInputSchema)
  .output(listPageSchema)
  .query(({ ctx, input }) => listLists(ctx.db, ctx.principal.workspaceId, input));

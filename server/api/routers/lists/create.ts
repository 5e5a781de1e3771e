// POST /lists: create a named list.
// The procedure, with its contract (meta, input, output) beside its work.
import { createList } from "../../../lists/lists";
import { listCreateSchema, listRecordSchema } from "../../../lists/schemas";
import { listsProcedure, TAGS, ABOUT, change } from "./shared";

export const createProcedure = listsProcedure
  .meta({
    errors: ["CONFLICT"],
    openapi: {
      method: "POST",
      path: "/lists",
      tags: TAGS,
      summary: "Create a named list",
      description: `Body: \`name\` (unique in the workspace, [a-z0-9_], 1 to 64 characters; 409 CONFLICT when taken), \`kind\`, optional \`description\`. ${ABOUT}`,
    },
  })
  .input(listCreateSchema)
  .output(listRecordSchema)
  .mutation(({ ctx, input }) => createList(ctx.db, { ...change(ctx), list: input }));

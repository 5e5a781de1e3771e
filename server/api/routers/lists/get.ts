// GET /lists/{id}: read a named list.
// The procedure, with its contract (meta, input, output) beside its work.
import { getListOrThrow } from "../../../lists/lists";
import { listIdSchema, listRecordSchema } from "../../../lists/schemas";
import { z } from "zod";
import { listsProcedure, TAGS, ABOUT } from "./shared";

/** For the routes that name one list by its id. */
const ONE_LIST = `${ABOUT} Another workspace's list is 404 NOT_FOUND.`;

export const getProcedure = listsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/lists/{id}",
      tags: TAGS,
      summary: "Read a named list",
      description: `One list with its item count and the rules that use it. ${ONE_LIST}`,
    },
  })
  .input(z.object({ id: listIdSchema }))
  .output(listRecordSchema)
  .query(({ ctx, input }) => getListOrThrow(ctx.db, ctx.principal.workspaceId, input.id));

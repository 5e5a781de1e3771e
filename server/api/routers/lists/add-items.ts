// POST /lists/{id}/items: add items to a named list.
// The procedure, with its contract (meta, input, output) beside its work.
import { addItems, MAX_ITEMS_PER_CALL } from "../../../lists/items";
import { itemsAddedSchema, itemsAddSchema } from "../../../lists/schemas";
import { listsProcedure, TAGS, change } from "./shared";

export const addItemsProcedure = listsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    csvBody: { field: "csv" },
    openapi: {
      method: "POST",
      path: "/lists/{id}/items",
      tags: TAGS,
      summary: "Add items to a named list",
      description: `Send either \`items\`: [{ \`value\`, \`expires_at\`?, \`note\`? }] or \`csv\`: text with one item a line, \`value,expires_at,note\` (the last two may be empty; quotes as in RFC 4180; a first line starting with \`value\` is a header and skipped); or send the CSV file itself as the body, with Content-Type \`text/csv\`. At most ${MAX_ITEMS_PER_CALL.toLocaleString("en")} items per call. Values are normalised by the list's kind (addresses canonical, ranges with host bits cleared, emails and domains lower-case, countries upper-case, ASNs without "AS"); one invalid item is 400 INVALID_REQUEST naming it (\`items[3]\` or \`CSV line 4\`) and nothing is written. A value already listed gets the new note and expiry.`,
    },
  })
  .input(itemsAddSchema)
  .output(itemsAddedSchema)
  .mutation(({ ctx, input }) => addItems(ctx.db, { ...change(ctx), ...input }));

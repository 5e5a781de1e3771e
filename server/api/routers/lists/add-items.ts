// POST /lists/{id}/items: add items to a named list.
// The procedure, with its contract (meta, input, output) beside its work.
import { addItems, MAX_ITEMS_BODY_BYTES, MAX_ITEMS_PER_CALL } from "../../../lists/items";
import { itemsAddedSchema, itemsAddSchema } from "../../../lists/schemas";
import { listsProcedure, TAGS, change } from "./shared";

export const addItemsProcedure = listsProcedure
  .meta({
    errors: ["NOT_FOUND"],
    csvBody: { field: "csv" },
    maxBodyBytes: MAX_ITEMS_BODY_BYTES,
    openapi: {
      method: "POST",
      path: "/lists/{id}/items",
      tags: TAGS,
      summary: "Add items to a named list",
      description: `Send either \`items\`: [{ \`value\`, \`expires_at\`?, \`note\`? }] or \`csv\`: text with one item a line, \`value,expires_at,note\` (the last two may be empty; quotes as in RFC 4180, so a quoted value may hold commas, doubled quotes and line breaks; a first line starting with \`value\` is a header that says which column is which: \`value,note\` or \`value,note,expires_at\` are read as they say; a header naming anything else is skipped and its rows read as \`value,expires_at,note\`); or send the CSV file itself as the body, with Content-Type \`text/csv\`. At most ${MAX_ITEMS_PER_CALL.toLocaleString("en")} items per call, in a body of at most ${MAX_ITEMS_BODY_BYTES.toLocaleString("en")} bytes (room for ${MAX_ITEMS_PER_CALL.toLocaleString("en")} rows of the longest value and note; other routes read at most 1,000,000). Values are checked as /assess checks the same field (an email address by the same parser, a country code by the check of \`billing_country\`, so XX, EU or UK is refused; user_id and device_id up to 256 characters) and normalised by the list's kind (addresses canonical, ranges with host bits cleared, emails and domains lower-case, countries upper-case, ASNs without "AS"); one invalid item is 400 INVALID_REQUEST naming it (\`items.3\` or \`CSV line 4\`) and nothing is written. A value already listed gets the new note and expiry.`,
    },
  })
  .input(itemsAddSchema)
  .output(itemsAddedSchema)
  .mutation(({ ctx, input }) => addItems(ctx.db, { ...change(ctx), ...input }));

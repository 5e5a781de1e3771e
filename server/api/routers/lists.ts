// Named lists over REST (/v1/lists...) and the dashboard: unmetered, capability `full` like rules (403
// CAPABILITY_REQUIRED on Free). The work is in server/lists; this file only declares the doors.
import { addItems, deleteItemOrThrow, listItems, MAX_ITEMS_PER_CALL } from "../../lists/items";
import { createList, deleteListOrThrow, getListOrThrow, listLists, updateListOrThrow } from "../../lists/lists";
import {
  deletedSchema,
  itemListInputSchema,
  itemPageSchema,
  itemsAddedSchema,
  itemsAddSchema,
  listCreateSchema,
  listIdSchema,
  listListInputSchema,
  listPageSchema,
  listRecordSchema,
  listUpdateSchema,
} from "../../lists/schemas";
import { z } from "zod";
import { actorOf } from "../actor";
import { authenticated, router } from "../trpc";

const listsProcedure = authenticated.meta({
  requires: { capability: "full", subject: "Lists need" },
  freeText: ["description", "items.note", "items.value", "csv"],
});

const TAGS = ["Lists"];
const ABOUT =
  'A named list holds values of one kind (ip: addresses and CIDR ranges; email; email_domain; user: user_id; device: device_id; country: alpha-2; asn) that rules test with `in_list("name", value)`, e.g. `in_list("blocked_emails", email.address)` or `in_list("office_networks", ip.address)` (an ip list matches an address listed or inside a listed range).';
/** For the routes that name one list by its id. */
const ONE_LIST = `${ABOUT} Another workspace's list is 404 NOT_FOUND.`;

const change = (ctx: Parameters<typeof actorOf>[0] & { principal: { workspaceId: string }; requestId: string }) => ({
  workspaceId: ctx.principal.workspaceId,
  requestId: ctx.requestId,
  actor: actorOf(ctx),
});

export const listsRouter = router({
  list: listsProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/lists",
        tags: TAGS,
        summary: "List named lists",
        description: `This workspace's lists by name, each with its item count and the rules that use it; paginate with \`limit\` and \`cursor\` (the previous page's \`next_cursor\`). ${ABOUT}`,
      },
    })
    .input(listListInputSchema)
    .output(listPageSchema)
    .query(({ ctx, input }) => listLists(ctx.db, ctx.principal.workspaceId, input)),

  create: listsProcedure
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
    .mutation(({ ctx, input }) => createList(ctx.db, { ...change(ctx), list: input })),

  get: listsProcedure
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
    .query(({ ctx, input }) => getListOrThrow(ctx.db, ctx.principal.workspaceId, input.id)),

  update: listsProcedure
    .meta({
      errors: ["NOT_FOUND", "CONFLICT"],
      openapi: {
        method: "PATCH",
        path: "/lists/{id}",
        tags: TAGS,
        summary: "Rename or describe a named list",
        description:
          "Changes `name` and/or `description` (the kind never changes). Renaming a list a rule uses, or to a name already taken, is 409 CONFLICT.",
      },
    })
    .input(listUpdateSchema)
    .output(listRecordSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...changes } = input;
      return updateListOrThrow(ctx.db, { ...change(ctx), id, changes });
    }),

  delete: listsProcedure
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
    .mutation(({ ctx, input }) => deleteListOrThrow(ctx.db, { ...change(ctx), id: input.id })),

  items: listsProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "GET",
        path: "/lists/{id}/items",
        tags: TAGS,
        summary: "List a named list's items",
        description:
          "Items by value, each with its note, `expires_at` and `expired` (an expired item no longer matches and is deleted by the retention purge). `query` keeps items whose value or note contains it; paginate with `limit` and `cursor`.",
      },
    })
    .input(itemListInputSchema)
    .output(itemPageSchema)
    .query(({ ctx, input }) => {
      const { id, ...page } = input;
      return listItems(ctx.db, ctx.principal.workspaceId, id, page);
    }),

  addItems: listsProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "POST",
        path: "/lists/{id}/items",
        tags: TAGS,
        summary: "Add items to a named list",
        description: `Send either \`items\`: [{ \`value\`, \`expires_at\`?, \`note\`? }] or \`csv\`: text with one item a line, \`value,expires_at,note\` (the last two may be empty; quotes as in RFC 4180; a first line starting with \`value\` is a header and skipped). At most ${MAX_ITEMS_PER_CALL.toLocaleString("en")} items per call. Values are normalised by the list's kind (addresses canonical, ranges with host bits cleared, emails and domains lower-case, countries upper-case, ASNs without "AS"); one invalid item is 400 INVALID_REQUEST naming it (\`items[3]\` or \`CSV line 4\`) and nothing is written. A value already listed gets the new note and expiry.`,
      },
    })
    .input(itemsAddSchema)
    .output(itemsAddedSchema)
    .mutation(({ ctx, input }) => addItems(ctx.db, { ...change(ctx), ...input })),

  deleteItem: listsProcedure
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
    .mutation(({ ctx, input }) => deleteItemOrThrow(ctx.db, { ...change(ctx), id: input.id, itemId: input.item })),
});

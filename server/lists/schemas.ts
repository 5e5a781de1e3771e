// The wire shapes of named lists (POST/GET /v1/lists...), shared by the REST API, the dashboard and the docs.
import { z } from "zod";
import { expiryTimestampSchema } from "../timestamps";
import { MAX_ITEMS_BODY_BYTES, MAX_ITEMS_PER_CALL, MAX_NOTE_LENGTH } from "./items";
import { LIST_KINDS, LIST_NAME_PATTERN, MAX_VALUE_LENGTH } from "./values";

const listName = z
  .string()
  .trim()
  .regex(LIST_NAME_PATTERN, "a list name is 1 to 64 characters of a-z, 0-9 and _")
  .describe('Unique in the workspace: 1 to 64 characters of a-z, 0-9 and _; rules name it in in_list("name", value)');
const description = z
  .string()
  .trim()
  .max(500)
  .nullable()
  .optional()
  .describe("Free text for people, at most 500 characters");

export const listIdSchema = z.string().trim().min(1).max(64);

export const listRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(LIST_KINDS),
  description: z.string().nullable(),
  item_count: z.number().int().describe("Items stored, expired ones included until they are purged"),
  used_by: z.array(z.object({ id: z.string(), name: z.string() })).describe("Rules whose expression names the list"),
  created_at: z.string(),
  updated_at: z.string(),
});

export const listCreateSchema = z.object({
  name: listName,
  kind: z
    .enum(LIST_KINDS)
    .describe(
      "What the items are: ip (addresses and CIDR ranges), email, email_domain, user (user_id), device (device_id), country (ISO 3166-1 alpha-2, as /assess takes `billing_country`), asn",
    ),
  description,
});

// An update that changes nothing is refused, as PATCH /rules, /webhooks and /monitors refuse one: it would otherwise
// write an audit entry "list updated" and bump the list's version for no change.
export const listUpdateSchema = z
  .object({ id: listIdSchema, name: listName.optional(), description })
  .strict()
  .refine((v) => v.name !== undefined || v.description !== undefined, {
    message: "send at least one of name, description",
  });

const page = {
  limit: z.coerce.number().int().min(1).max(200).default(50).describe("Page size, 1 to 200 (default 50)"),
  cursor: z.string().max(300).optional().describe("The previous page's next_cursor"),
};

export const listListInputSchema = z.object(page);
export const listPageSchema = z.object({ items: z.array(listRecordSchema), next_cursor: z.string().nullable() });

export const itemListInputSchema = z.object({
  id: listIdSchema,
  ...page,
  query: z
    .string()
    .max(200)
    .optional()
    .describe("Keep items whose value or note contains this text (any case; every character as it is, _ and % too)"),
});

export const itemRecordSchema = z.object({
  id: z.string(),
  value: z.string().describe("The normalised value"),
  note: z.string().nullable(),
  expires_at: z.string().nullable(),
  expired: z.boolean().describe("True once expires_at has passed: the item no longer matches and will be purged"),
  created_at: z.string(),
});
export const itemPageSchema = z.object({ items: z.array(itemRecordSchema), next_cursor: z.string().nullable() });

export const itemsAddSchema = z
  .object({
    id: listIdSchema,
    items: z
      .array(
        z
          .object({
            value: z.union([z.string().max(MAX_VALUE_LENGTH * 2), z.number()]),
            expires_at: expiryTimestampSchema
              .nullable()
              .optional()
              .describe(
                "ISO 8601 date or date-time with Z or an offset, in the future and at most 9999-12-31; the item stops matching then",
              ),
            note: z.string().max(MAX_NOTE_LENGTH).nullable().optional(),
          })
          .strict(),
      )
      .max(MAX_ITEMS_PER_CALL)
      .optional(),
    csv: z
      .string()
      .max(MAX_ITEMS_BODY_BYTES)
      .optional()
      .describe(
        "CSV text (RFC 4180), one item a record: value,expires_at,note (the last two may be empty; expires_at as in `items`; quoted values may hold commas, doubled quotes and line breaks; a header line starting with value names the columns, e.g. value,note)",
      ),
  })
  .refine((b) => (b.items === undefined) !== (b.csv === undefined), {
    message: "send exactly one of items and csv",
    path: ["items"],
  });

export const itemsAddedSchema = z.object({
  list_id: z.string(),
  received: z.number().int(),
  added: z.number().int().describe("New values"),
  updated: z.number().int().describe("Values already listed whose note and expiry were replaced"),
});

export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

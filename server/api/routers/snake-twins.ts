// The public lists' field names are snake_case (`next_cursor`, `request_id`, `created_at`). Four lists answered a few
// fields in camelCase first (`nextCursor` on /events, /lookups/history, /go/links and a webhook's deliveries;
// `requestId` on events and history entries; `historyDays`): they now answer both names, the snake_case one
// documented, the camelCase one kept for clients written against it.
import { z } from "zod";

const FIRST_NAME = "The same as `%s`, under the name this list answered first (kept for clients written against it)";

/** `next_cursor` with its first name `nextCursor`. */
export const nextPageFields = {
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
  nextCursor: z.string().nullable().describe(FIRST_NAME.replace("%s", "next_cursor")),
};

/** `request_id` with its first name `requestId`. */
export const requestIdFields = {
  request_id: z.string().describe("Identifier of the request that wrote it (its answer's X-Request-Id)"),
  requestId: z.string().describe(FIRST_NAME.replace("%s", "request_id")),
};

/** A page as the store gives it (`nextCursor`), with `next_cursor` beside it. */
export function withNextPage<T extends { nextCursor: string | null }>(page: T): T & { next_cursor: string | null } {
  return { ...page, next_cursor: page.nextCursor };
}

/** A row as the store gives it (`requestId`), with `request_id` beside it. */
export function withRequestId<T extends { requestId: string }>(row: T): T & { request_id: string } {
  return { ...row, request_id: row.requestId };
}

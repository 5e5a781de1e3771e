// GET /users/{user_id}: one account's baseline, identifiers, linked accounts and recent assessments.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { pageCursor } from "../../../pages";
import { getUserProfileOrThrow } from "../../../users/profile";
import { userProfileSchema } from "../../../users/schemas";
import { authenticated } from "../../trpc";

/** Unmetered, like the review queue it serves, but it keeps its capability check (spec Limits rule 5): `full`. */
export const usersProcedure = authenticated.meta({
  requires: { capability: "full", subject: "Account profiles need" },
});

export const getProcedure = usersProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/users/{user_id}",
      tags: ["Assessment"],
      summary: "Read an account: baseline, linked accounts, assessments",
      description:
        "The account named by `user_id` in your /assess requests, as this workspace's assessments know it (an account assessed without a `user_id` is its email address: `GET /v1/users/alice%40example.com` opens it by any spelling of its mailbox, and `key` says which kind was found). An email address sent as a `user_id` and the account of assessments sent without a `user_id` from that mailbox are two accounts: without the `key` parameter the `user_id`'s account is answered when there is one, `other_key` then says the other exists, and `?key=email` (or `?key=user_id`) opens exactly one kind. The answer holds: its baseline (succeeded assessments of the last 90 days: first and last seen, countries, devices, addresses of the last 30 days), its identifiers of the last 30 days (devices, canonical mailboxes, phone numbers, cards), the other accounts that shared one of them in those 30 days with what links them (the 50 most recently linked) (multi-accounting rings, signup farms, shared stolen cards), and its assessments newest first, with any payment's BIN, last four and status (paginate with `limit` and `cursor`). An account this workspace never assessed, or another workspace's, is 404 NOT_FOUND.",
    },
  })
  .input(
    z.object({
      user_id: z.string().trim().min(1).max(256).describe("Your identifier of the account, as sent to /assess"),
      key: z
        .enum(["user_id", "email"])
        .optional()
        .describe(
          "Which kind of account to open: `user_id` (assessments sent with this user_id) or `email` (those sent without one, by this address's mailbox); by default the user_id's account, else the mailbox's",
        ),
      limit: z.coerce.number().int().min(1).max(100).default(25).describe("Assessments per page (1 to 100)"),
      cursor: pageCursor(z.string().trim().max(64)).describe("The previous page's `assessments.next_cursor`"),
    }),
  )
  .output(userProfileSchema)
  .query(({ ctx, input }) =>
    getUserProfileOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      userId: input.user_id,
      key: input.key,
      limit: input.limit,
      cursor: input.cursor,
    }),
  );

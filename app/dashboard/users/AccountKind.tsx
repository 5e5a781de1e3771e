"use client";
// Which of an address's two accounts the page shows, and a link to the other (GET /users/{user_id}: `key` and
// `other_key`). An email address sent as a user id and the account of assessments sent without a user id from that
// mailbox are two accounts; by default the user id's is opened, and `?key=email` opens the mailbox's.
import Link from "next/link";

export type AccountKey = "user_id" | "email";

/** The page of one kind of account of this name: the default (the user id's when there is one) needs no parameter. */
export function accountHref(userId: string, key?: AccountKey): string {
  return `/dashboard/users/${encodeURIComponent(userId)}${key === "email" ? "?key=email" : ""}`;
}

export function AccountKind({ userId, shown, other }: { userId: string; shown: AccountKey; other: AccountKey | null }) {
  if (shown === "user_id" && other === "email")
    return (
      <p className="notice small" data-testid="user-other-key">
        Sent as a user id. This address also names another account: the one of the assessments sent without a user id
        from this mailbox. <Link href={accountHref(userId, "email")}>Open the account known by this email address</Link>
      </p>
    );
  if (shown !== "email") return null;
  return (
    <p className="notice small" data-testid="user-other-key">
      Known by its email address: the assessments sent without a user id from this mailbox.
      {other === "user_id" ? (
        <>
          {" "}
          The same address was also sent as a user id, which is another account.{" "}
          <Link href={accountHref(userId)}>Open the account of this user id</Link>
        </>
      ) : null}
    </p>
  );
}

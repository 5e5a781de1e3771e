// /dashboard/users: find an account by the user id your assessments send (or, for one assessed without a user id, by
// its email address: GET /users/{user_id} opens it by any spelling of its mailbox). The API keeps no list of accounts to
// browse (an account exists only as the assessments that named it), so the page explains where accounts come from
// and where else to open one.
import Link from "next/link";
import { UserSearch } from "./UserSearch";

export const metadata = { title: "Accounts · Dashboard" };

export default function UsersPage() {
  return (
    <>
      <h1>Accounts</h1>
      <p className="muted">
        One account as this workspace&apos;s assessments know it: its usual countries and devices, the other accounts
        that share its devices, mailboxes, phone numbers or cards, and its payments.
      </p>
      <UserSearch />
      <section className="card" data-testid="users-empty" aria-labelledby="users-how">
        <h2 id="users-how">How accounts appear here</h2>
        <p>
          An account appears once an assessment names it: send your own id for the person (for example{" "}
          <code>customer-42</code>, the id your application gives them) as the user id of a login, signup or checkout
          assessment, from the API or from <Link href="/dashboard/assess">Assess an event</Link>.
        </p>
        <p>
          Search by that user id, exactly as it was sent. An account assessed without a user id is known by its email
          address: search for the address, in any spelling of its mailbox (dots and +tags at Gmail, for example). An IP
          address or a device id finds no account here; the <Link href="/dashboard/events">Events</Link> find
          assessments by IP address or email address.
        </p>
        <p className="muted small">
          You can also open an account from a case in the <Link href="/dashboard/cases">Review queue</Link> or from a
          linked account on another account&apos;s page.
        </p>
      </section>
    </>
  );
}

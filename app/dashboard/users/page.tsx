// /dashboard/users: find an account by the user_id your /assess requests send.
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
    </>
  );
}

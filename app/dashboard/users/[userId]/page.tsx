// /dashboard/users/{userId}: one account, its linked accounts and its payments. `?key=email` (or `?key=user_id`)
// opens exactly that kind of account, as GET /v1/users/{user_id}?key= does: an email address sent as a user id and
// the account of assessments sent without one from that mailbox are two accounts. Any other value opens the default.
import { UserView } from "../UserView";

export const metadata = { title: "Account · Dashboard" };

export default async function UserPage({
  params,
  searchParams,
}: {
  params: Promise<{ userId: string }>;
  searchParams: Promise<{ key?: string | string[] }>;
}) {
  const { userId } = await params;
  const { key } = await searchParams;
  const kind = key === "email" || key === "user_id" ? key : undefined;
  return <UserView userId={decodeURIComponent(userId)} kind={kind} />;
}

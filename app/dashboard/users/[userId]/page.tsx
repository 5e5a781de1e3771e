// /dashboard/users/{userId}: one account, its linked accounts and its payments.
import { UserView } from "../UserView";

export const metadata = { title: "Account · Dashboard" };

export default async function UserPage({ params }: { params: Promise<{ userId: string }> }) {
  const { userId } = await params;
  return <UserView userId={decodeURIComponent(userId)} />;
}

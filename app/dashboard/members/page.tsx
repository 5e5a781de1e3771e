import { MembersView } from "./MembersView";

export const metadata = { title: "Members · Dashboard" };

export default function MembersPage() {
  return <MembersView />;
}

import { SendersView } from "./SendersView";

export const metadata = { title: "Senders · Dashboard" };

export default function SendersPage() {
  return <SendersView />;
}

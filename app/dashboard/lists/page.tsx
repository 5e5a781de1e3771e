// /dashboard/lists: the workspace's named lists, which rules test with in_list().
import { ListsView } from "./ListsView";

export const metadata = { title: "Lists · Dashboard" };

export default function ListsPage() {
  return <ListsView />;
}
